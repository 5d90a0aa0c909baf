package dem

import (
	"fmt"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
)

// warpBlockRows is how many output rows a warped export computes at once;
// it divides gdalChunkHeight, so that a block lies in one row of GDAL's
// chunks and takes its kernels.
const warpBlockRows = 32

// sourceRows hands out a source window's rows, top to bottom, one call
// per row (a *geotiff.Window).
type sourceRows interface {
	Row(y int, dst []byte) error
}

// warpStream computes a warped export's rows block by block: the source
// point of every pixel of the block, then the source rows those points
// reach (read in order, the rows above the block dropped), then the
// pixels, each step on every core.
type warpStream struct {
	w      *warp
	method Resampling
	ks     []kernel   // the kernels of the GDAL chunks of the block's rows
	ry     int        // the farthest the kernels reach along y
	src    gridWindow // the source pixels read
	read   sourceRows
	codec  sampleCodec
	noData []byte // one sample
	job    export.Job

	blockRows int
	uv        []float64 // the block's source points, u and v per pixel
	out       []byte    // the block's samples
	raw       []byte    // one source row as read
	rows      [][]float64
	base      int // the source row (in the window) of rows[0]
	next      int // the next window row to read
	free      [][]float64
	maxRows   int // the most rows held at once
	inside    *int64
	// turn, when set, waits for a turn at CPU work (export.Pace):
	// each goroutine's part of a block's points and of its pixels is
	// computed in a turn of its own.
	turn func() (func(), error)
}

// newWarpStream returns the stream; maxRows bounds the source rows it
// holds (see warp.rowSpan).
func newWarpStream(w *warp, method Resampling, src gridWindow, read sourceRows, codec sampleCodec, noData []byte, j export.Job, maxRows int, inside *int64) *warpStream {
	return &warpStream{w: w, method: method, src: src, read: read, codec: codec, noData: noData, job: j,
		blockRows: warpBlockRows, maxRows: maxRows, inside: inside,
		uv:  make([]float64, 2*warpBlockRows*w.width),
		out: make([]byte, warpBlockRows*w.width*codec.size),
		raw: make([]byte, src.width*codec.size)}
}

// warpMemory is the bytes a warpStream allocates for an output of width
// pixels, a source window of srcWidth pixels, maxRows rows held and
// samples of size bytes.
func warpMemory(width, srcWidth, maxRows, size int) int64 {
	return int64(warpBlockRows)*int64(width)*int64(16+size+1) + int64(srcWidth)*int64(size) +
		int64(maxRows)*int64(srcWidth)*8
}

// cogRows is the COG writer's row source.
func (s *warpStream) cogRows() cog.Rows {
	size := s.codec.size
	return func(y int, buf []byte) error {
		if y%s.blockRows == 0 {
			if err := s.block(y, min(y+s.blockRows, s.w.height)); err != nil {
				return err
			}
		}
		i := y % s.blockRows
		copy(buf, s.out[i*s.w.width*size:(i+1)*s.w.width*size])
		return nil
	}
}

// at returns source row r (in the source's own rows), nil when not held.
func (s *warpStream) at(r int) []float64 {
	i := r - s.src.row - s.base
	if i < 0 || i >= len(s.rows) {
		return nil
	}
	return s.rows[i]
}

// block computes output rows [y0, y1).
func (s *warpStream) block(y0, y1 int) error {
	w, n := s.w.width, y1-y0
	if y0%gdalChunkHeight == 0 || s.ks == nil {
		ks, err := s.w.chunkKernels(s.method, y0)
		if err != nil {
			return export.Permanent("the DEM record's source cannot be warped to EPSG:4326", fmt.Errorf("dem: %w", err))
		}
		s.ks, s.ry = ks, 0
		for _, k := range ks {
			_, ry := k.reach()
			s.ry = max(s.ry, ry)
		}
	}
	k0 := s.ks[0] // inside does not depend on the chunk
	// The source point of every pixel centre.
	err := s.split(n, func(lo, hi int) error {
		for y := lo; y < hi; y++ {
			uv := s.uv[2*y*w : 2*(y+1)*w]
			for x := range w {
				u, v, ok := s.w.sourcePoint(float64(x)+0.5, float64(y0+y)+0.5)
				if !ok {
					u, v = math.NaN(), math.NaN()
				}
				uv[2*x], uv[2*x+1] = u, v
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The source rows they reach.
	minV, maxV := math.Inf(1), math.Inf(-1)
	for i := 0; i < 2*n*w; i += 2 {
		if u, v := s.uv[i], s.uv[i+1]; k0.inside(u, v) {
			minV, maxV = math.Min(minV, v), math.Max(maxV, v)
		}
	}
	if minV <= maxV {
		first := int(math.Floor(minV-0.5)) - s.ry - s.src.row // window rows
		last := int(math.Floor(maxV+0.5)) + s.ry - s.src.row
		if err := s.hold(max(first, 0), min(last, s.src.height-1)); err != nil {
			return err
		}
	}
	// The pixels.
	b := band{col0: s.src.col, width: s.src.width, at: s.at}
	counts := make([]int64, n)
	size := s.codec.size
	err = s.split(n, func(lo, hi int) error {
		in := make([]bool, w)
		for y := lo; y < hi; y++ {
			out := s.out[y*w*size : (y+1)*w*size]
			lat := s.w.north - (float64(y0+y)+0.5)*s.w.res
			s.job.InsideRow(lat, s.w.west+0.5*s.w.res, s.w.res, in)
			uv := s.uv[2*y*w : 2*(y+1)*w]
			for x := range w {
				u, v := uv[2*x], uv[2*x+1]
				if k := &s.ks[x/gdalChunkWidth]; in[x] && k.inside(u, v) {
					if val, ok := k.sample(b, u, v); ok {
						s.codec.put(out, x, val)
						counts[y]++
						continue
					}
				}
				copy(out[x*size:(x+1)*size], s.noData)
			}
		}
		return nil
	})
	for _, c := range counts {
		*s.inside += c
	}
	return err
}

// hold makes the held rows the window rows [first, last] (or as many of
// them as the window has), reading the rows below those held and dropping
// those above first.
func (s *warpStream) hold(first, last int) error {
	for len(s.rows) > 0 && s.base < first {
		s.free = append(s.free, s.rows[0])
		s.rows = s.rows[1:]
		s.base++
	}
	if len(s.rows) == 0 {
		s.base = max(first, s.next)
	}
	for s.next < s.base {
		// Rows above the block that no point reaches: read past them.
		if err := s.read.Row(s.next, s.raw); err != nil {
			return err
		}
		s.next++
	}
	for s.next <= last {
		if err := s.read.Row(s.next, s.raw); err != nil {
			return err
		}
		var row []float64
		if k := len(s.free); k > 0 {
			row, s.free = s.free[k-1], s.free[:k-1]
		} else {
			if len(s.rows) >= s.maxRows {
				return export.Permanent("the DEM record's source cannot be warped within the memory planned",
					fmt.Errorf("dem: the warp needs more than the %d source rows planned at once", s.maxRows))
			}
			row = make([]float64, s.src.width)
		}
		s.codec.decode(s.raw, row)
		s.rows = append(s.rows, row)
		s.next++
	}
	return nil
}

// split is the package's split with each part in a turn of s.turn.
func (s *warpStream) split(n int, fn func(lo, hi int) error) error {
	if s.turn == nil {
		return split(n, fn)
	}
	return split(n, func(lo, hi int) error {
		done, err := s.turn()
		if err != nil {
			return err
		}
		defer done()
		return fn(lo, hi)
	})
}
