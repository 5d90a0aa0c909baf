package dem

import (
	"errors"
	"math"
	"runtime"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// warp maps the pixels of an output window of a lon/lat grid to the
// source's pixels: what a warped export computes.
type warp struct {
	proj projection
	sgt  [6]float64 // the source's geotransform, north-up
	srcW int        // the source's size in pixels
	srcH int
	// west, north and res place the output window: pixel (x, y) has its
	// centre at (west + (x+0.5)·res, north - (y+0.5)·res), as GDAL places
	// the pixels of `gdalwarp -te west south east north -tr res res`.
	west, north, res float64
	width, height    int
}

// sourcePoint returns the source pixel coordinates (u, v) of output pixel
// corner or centre (px, py) (0,0 the window's top-left corner), false when
// it does not transform.
func (w *warp) sourcePoint(px, py float64) (u, v float64, ok bool) {
	lon := w.west + px*w.res
	lat := w.north - py*w.res
	x, y, ok := w.proj.FromLonLat(lon, lat)
	if !ok || math.IsNaN(x) || math.IsNaN(y) {
		return 0, 0, false
	}
	return (x - w.sgt[0]) / w.sgt[1], (y - w.sgt[3]) / w.sgt[5], true
}

// span is a range of source pixel coordinates.
type span struct{ minU, minV, maxU, maxV float64 }

// edgeSpan returns the range of source pixel coordinates of steps+1 points
// along each edge of the output rows [y0, y1) (pixel corners), false when
// none transforms.
func (w *warp) edgeSpan(y0, y1, steps int) (span, bool) {
	s := span{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	got := false
	add := func(px, py float64) {
		u, v, ok := w.sourcePoint(px, py)
		if !ok {
			return
		}
		got = true
		s.minU, s.maxU = math.Min(s.minU, u), math.Max(s.maxU, u)
		s.minV, s.maxV = math.Min(s.minV, v), math.Max(s.maxV, v)
	}
	fw, h := float64(w.width), float64(y1-y0)
	for i := 0; i <= steps; i++ {
		r := float64(i) / float64(steps)
		add(r*fw, float64(y0))
		add(r*fw, float64(y1))
		add(0, float64(y0)+r*h)
		add(fw, float64(y0)+r*h)
	}
	return s, got
}

// The chunks GDAL warps an output in when it writes a COG: `gdalwarp -of
// COG` warps through a warped VRT, whose blocks of 512×128 pixels (from
// the output's top-left corner) are warped one at a time, each with the
// kernel scales of its own source window.
const (
	gdalChunkWidth  = 512
	gdalChunkHeight = 128
)

// gdalScales returns the output pixels per source pixel along x and y that
// GDAL's warper uses to choose and size its bilinear kernel for the chunk
// of the output of w×h pixels at (x0, y0) (GDAL 3.6):
// GDALWarpOperation::ComputeSourceWindow transforms 21 points along each
// edge of the chunk (pixel corners, the
// ratio stepping by 1/20) to source pixels, rounds a coordinate within
// 1e-6 of an integer to it, and takes their range, clamped to the source,
// as the span; the source window it reads is that range widened by the
// kernel's radius (or the whole width or height when the range covers
// more than 90% of it). GDALWarpKernel::PerformWarp's scale is the output's
// size over the span, but 1 when the output's size lies between the span
// and the window's size, and a scale below 1 within 0.05 of the reciprocal
// of an integer is snapped to it.
func (w *warp) gdalScales(x0, y0, cw, ch int) (float64, float64, error) {
	minU, minV, maxU, maxV := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	got := 0
	add := func(px, py float64) {
		u, v, ok := w.sourcePoint(px, py)
		if !ok {
			return
		}
		got++
		minU, maxU = math.Min(minU, u), math.Max(maxU, u)
		minV, maxV = math.Min(minV, v), math.Max(maxV, v)
	}
	const step = 1.0 / (21 - 1)
	fx, fy, fw, fh := float64(x0), float64(y0), float64(cw), float64(ch)
	for r := 0.0; r <= 1.0+step*0.5; r += step {
		add(r*fw+fx, fy)
		add(r*fw+fx, fy+fh)
		add(fx, r*fh+fy)
		add(fx+fw, r*fh+fy)
	}
	if got == 0 {
		return 0, 0, errors.New("no point of the area transforms to the source's CRS")
	}
	roundClose := func(v float64) float64 {
		if r := math.Round(v); math.Abs(r-v) < 1e-6 {
			return r
		}
		return v
	}
	minU, minV, maxU, maxV = roundClose(minU), roundClose(minV), roundClose(maxU), roundClose(maxV)
	scale := func(dst int, lo, hi float64, size int) float64 {
		windowScale := math.Max(1e-3, float64(dst)/(hi-lo))
		radius := 1
		if windowScale < 0.95 {
			radius = int(math.Ceil(1 / windowScale))
		}
		loClamped := int(math.Max(0, lo))
		hiClamped := int(math.Min(math.Ceil(hi), float64(size)))
		raw := math.Max(0, math.Min(float64(size-loClamped), hi-lo))
		n := size
		if float64(hiClamped-loClamped) <= 0.9*float64(size) {
			off := max(0, min(loClamped-radius, size))
			n = max(0, min(size-off, hiClamped-off+radius))
		}
		extra := float64(n) - raw
		if n <= 0 {
			return 1
		}
		sc := float64(dst) / (float64(n) - extra)
		if n >= dst && float64(n) <= float64(dst)+extra {
			return 1
		}
		if sc < 1 {
			rec := 1 / sc
			if k := math.Floor(rec + 0.5); math.Abs(rec-k) < 0.05 {
				sc = 1 / k
			}
		}
		return sc
	}
	return scale(cw, minU, maxU, w.srcW), scale(ch, minV, maxV, w.srcH), nil
}

// chunkKernels returns the kernels of method for the chunks of the output's
// rows of chunks that holds row y, one per chunk from left to right.
func (w *warp) chunkKernels(method Resampling, y int) ([]kernel, error) {
	y0 := y / gdalChunkHeight * gdalChunkHeight
	ch := min(gdalChunkHeight, w.height-y0)
	ks := make([]kernel, 0, (w.width+gdalChunkWidth-1)/gdalChunkWidth)
	for x0 := 0; x0 < w.width; x0 += gdalChunkWidth {
		xs, ys := 1.0, 1.0
		if method != Nearest {
			var err error
			if xs, ys, err = w.gdalScales(x0, y0, min(gdalChunkWidth, w.width-x0), ch); err != nil {
				return nil, err
			}
		}
		ks = append(ks, newKernel(method, w.srcW, w.srcH, xs, ys))
	}
	return ks, nil
}

// maxReach returns the farthest the kernels of method reach, along x and
// y, over the whole output.
func (w *warp) maxReach(method Resampling) (int, int, error) {
	rx, ry := 0, 0
	for y := 0; y < w.height; y += gdalChunkHeight {
		ks, err := w.chunkKernels(method, y)
		if err != nil {
			return 0, 0, err
		}
		for _, k := range ks {
			x, y := k.reach()
			rx, ry = max(rx, x), max(ry, y)
		}
	}
	return rx, ry, nil
}

// sourceWindow returns the source pixels the output window can read with
// a kernel reaching rx and ry pixels beyond the pixel a point falls in:
// the range of its edges sampled every 16 output pixels, widened by the
// reach and a pixel more for the curvature between samples, clipped to the
// source. It reports false when the window misses the source.
func (w *warp) sourceWindow(rx, ry int) (gridWindow, bool) {
	steps := max(21, (max(w.width, w.height)+15)/16)
	s, ok := w.edgeSpan(0, w.height, steps)
	if !ok {
		return gridWindow{}, false
	}
	c0 := max(0, int(math.Floor(s.minU))-rx-1)
	r0 := max(0, int(math.Floor(s.minV))-ry-1)
	c1 := min(w.srcW, int(math.Ceil(s.maxU))+rx+1)
	r1 := min(w.srcH, int(math.Ceil(s.maxV))+ry+1)
	if c1 <= c0 || r1 <= r0 {
		return gridWindow{}, false
	}
	return gridWindow{col: c0, row: r0, width: c1 - c0, height: r1 - r0}, true
}

// rowSpan returns the most source rows the output rows of one block of
// blockRows rows reach, from the spans of the blocks' edges.
func (w *warp) rowSpan(blockRows, ry int) int {
	most := 0
	for y0 := 0; y0 < w.height; y0 += blockRows {
		s, ok := w.edgeSpan(y0, min(y0+blockRows, w.height), max(21, (w.width+31)/32))
		if !ok {
			continue
		}
		most = max(most, int(math.Ceil(s.maxV)-math.Floor(s.minV))+2*ry+3)
	}
	return most
}

// workers is how many goroutines a warped export computes on.
func workers() int { return max(1, runtime.GOMAXPROCS(0)) }

// split runs fn on parts of [0, n) on up to workers() goroutines and
// returns the first error; a panic fails the export (see package guard).
func split(n int, fn func(lo, hi int) error) error {
	k := min(workers(), n)
	if k <= 1 {
		return guard.Run(func() error { return fn(0, n) })
	}
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer guard.Recover(&errs[i])
			errs[i] = fn(i*n/k, (i+1)*n/k)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
