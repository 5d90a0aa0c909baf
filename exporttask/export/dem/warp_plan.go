package dem

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/cog"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// warpPlan is how a warped export computes its pixels.
type warpPlan struct {
	grid    warpGrid   // the grid gdalwarp suggests for the whole source
	out     gridWindow // the part of it exported
	w       *warp
	method  Resampling
	maxRows int // the most source rows held at once
	memory  int64
}

// planWarp plans the export of a source in a projected CRS: the output is
// the window of the grid `gdalwarp -t_srs EPSG:4326` suggests for the
// whole source (see suggestedGrid) that the job's box meets, snapped
// outward to its pixels (see warpGrid.windowOf); its pixels are computed
// with method from the source window they reach. The source's blocks are
// decoded in turns of turn (nil: without waiting).
func (e *Exporter) planWarp(j export.Job, src *source, proj projection, method Resampling, scratch string, turn func() (func(), error)) (*plan, error) {
	f := src.tif
	fail := func(problem string, err error) (*plan, error) {
		src.Close()
		return nil, export.Permanent("the DEM record's source cannot be warped to EPSG:4326: "+problem,
			fmt.Errorf("dem: %s: %w", src.path, err))
	}
	grid, err := suggestedGrid(proj, src.gt, f.Width, f.Height)
	if err != nil {
		return fail(err.Error(), err)
	}
	out, ok := grid.windowOf(j.Box())
	if !ok {
		src.Close()
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: fmt.Sprintf("covers no pixel of the DEM warped to EPSG:4326 (pixels of %g degrees) where it meets the record", grid.res)})
	}
	west, _, _, north := grid.bounds(out)
	w := &warp{proj: proj, sgt: src.gt, srcW: f.Width, srcH: f.Height,
		west: west, north: north, res: grid.res, width: out.width, height: out.height}
	rx, ry, err := w.maxReach(method)
	if err != nil {
		return fail(err.Error(), err)
	}
	sw, ok := w.sourceWindow(rx, ry)
	if !ok {
		src.Close()
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: "covers no pixel of the DEM's source where it meets the record"})
	}
	wp := &warpPlan{grid: grid, out: out, w: w, method: method, maxRows: min(sw.height, w.rowSpan(warpBlockRows, ry))}
	wp.memory = warpMemory(out.width, sw.width, wp.maxRows, f.SampleBytes())
	if wp.memory > e.memoryBudget/4 {
		src.Close()
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: fmt.Sprintf("selects %d × %d pixels of the DEM warped to EPSG:4326, too wide to warp within an export's memory budget of %d MB: "+
				"export a narrower area (or several)", out.width, out.height, e.memoryBudget>>20)})
	}
	rd, err := f.WindowWith(sw.col, sw.row, sw.width, sw.height,
		geotiff.WindowOptions{MemoryBudget: e.memoryBudget / 4, ScratchDir: scratch, Turn: turn})
	if err != nil {
		rd, err = f.WindowWith(sw.col, sw.row, sw.width, sw.height,
			geotiff.WindowOptions{MemoryBudget: e.memoryBudget / 2, ScratchDir: scratch, Turn: turn})
	}
	if err != nil {
		src.Close()
		return nil, export.Permanent("the DEM record's source cannot be read within an export's memory budget: "+errText(err),
			fmt.Errorf("dem: %w", err))
	}
	p := &plan{src: src, read: rd, warp: wp,
		win: window{col: sw.col, row: sw.row, width: sw.width, height: sw.height},
		img: cog.Image{
			Width: out.width, Height: out.height,
			BitsPerSample: f.BitsPerSample, SampleFormat: f.SampleFormat,
			West: west, North: north, PixelWidth: grid.res, PixelHeight: grid.res,
		}}
	p.img.NoData = exportNoData(src)
	geotiff.EncodeValue(src.typ, p.img.NoData, p.noData[:])
	p.writerBudget = e.memoryBudget - rd.Memory() - wp.memory
	if _, err := cog.Memory(p.img, p.writerBudget, 0); err != nil {
		p.close()
		return nil, exporttask.NewValidationError(exporttask.FieldError{Pointer: "/ROI",
			Message: fmt.Sprintf("selects %d × %d pixels of the DEM warped to EPSG:4326, too wide to export within an export's memory budget of %d MB: "+
				"export a narrower area (or several)", out.width, out.height, e.memoryBudget>>20)})
	}
	return p, nil
}

// stream returns the warp's row source for p's export of j; inside counts
// the pixels given a value. Each part of a block's work waits for a turn
// of turn (nil: without waiting).
func (wp *warpPlan) stream(p *plan, j export.Job, inside *int64, turn func() (func(), error)) *warpStream {
	size := p.src.tif.SampleBytes()
	codec := newSampleCodec(p.src.typ, size, p.src.tif.Valid())
	sw := gridWindow{col: p.win.col, row: p.win.row, width: p.win.width, height: p.win.height}
	read := rowFunc(func(y int, dst []byte) error {
		if err := p.read.Row(y, dst); err != nil {
			return export.Permanent("the DEM record's source cannot be read", fmt.Errorf("dem: %s: %w", p.src.path, err))
		}
		return nil
	})
	s := newWarpStream(wp.w, wp.method, sw, read, codec, p.noData[:size], j, wp.maxRows, inside)
	s.turn = turn
	return s
}

// rowFunc is a sourceRows made of a function.
type rowFunc func(y int, dst []byte) error

// Row calls f.
func (f rowFunc) Row(y int, dst []byte) error { return f(y, dst) }

// projection returns the source's CRS when its pixels must be warped to
// EPSG:4326, nil when they are exported as they are.
func (s *source) projection() projection {
	if s.crs == nil || !NeedsWarp(s.crs) {
		return nil
	}
	return s.crs
}
