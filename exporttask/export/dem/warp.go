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

// gdalScales returns the output pixels per source pixel along x and y that
// GDAL's warper uses to choose and size its bilinear kernel, for an output
// warped in one chunk: GDALWarpOperation::ComputeSourceWindow's span of
// the chunk's edges in source pixels (21 steps along each edge), clamped
// to the source, and GDALWarpKernel::PerformWarp's rules (a scale is 1
// when the output's size lies between that span and the source window
// read for it; one below 1 within 0.05 of the reciprocal of an integer is
// snapped to it).
func (w *warp) gdalScales() (float64, float64, error) {
	s, ok := w.edgeSpan(0, w.height, 21)
	if !ok {
		return 0, 0, errors.New("no point of the area transforms to the source's CRS")
	}
	scale := func(dst int, lo, hi float64, size int) float64 {
		clampedLo := int(math.Max(0, lo))
		raw := math.Max(0, math.Min(float64(size-clampedLo), hi-lo))
		if raw == 0 {
			return 1
		}
		sc := float64(dst) / raw
		radius := 1
		if sc < 0.95 {
			radius = int(math.Ceil(1 / sc))
		}
		off := max(0, min(clampedLo-radius, size))
		hiClamped := int(math.Min(math.Ceil(hi), float64(size)))
		n := max(0, min(size-off, hiClamped-off+radius))
		if n >= dst && float64(n) <= float64(dst)+(float64(n)-raw) {
			return 1
		}
		if sc < 1 {
			rec := 1 / sc
			if n := math.Floor(rec + 0.5); math.Abs(rec-n) < 0.05 {
				sc = 1 / n
			}
		}
		return sc
	}
	return scale(w.width, s.minU, s.maxU, w.srcW), scale(w.height, s.minV, s.maxV, w.srcH), nil
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
