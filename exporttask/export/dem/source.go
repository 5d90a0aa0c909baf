package dem

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// SourceFile is the name of the elevation grid in a record's directory.
const SourceFile = "elevation.f32"

// NoData is the value of pixels without data, in the source and in exports.
const NoData = -32768

// grid is the geometry of a record's source grid.
type grid struct {
	box           geom.BBox // the footprint's bounding box
	res           float64   // degrees per pixel
	width, height int
}

// gridOf derives the source grid from the record: its footprint's box and
// resolution.
func gridOf(rec exporttask.Record) (grid, error) {
	fp, err := geom.FromGeometry(rec.Footprint)
	if err != nil {
		return grid{}, fmt.Errorf("record %s footprint: %w", rec.ID, err)
	}
	box := fp.BBox()
	if box.Empty() {
		return grid{}, fmt.Errorf("record %s footprint is empty", rec.ID)
	}
	if !(rec.Resolution > 0) || math.IsInf(rec.Resolution, 0) {
		return grid{}, fmt.Errorf("record %s resolution %v is not a positive number of degrees", rec.ID, rec.Resolution)
	}
	w := math.Round(box.Width() / rec.Resolution)
	h := math.Round(box.Height() / rec.Resolution)
	if w < 1 || h < 1 || w*h > 1<<31 {
		return grid{}, fmt.Errorf("record %s grid of %.0fx%.0f pixels is out of range", rec.ID, w, h)
	}
	return grid{box: box, res: rec.Resolution, width: int(w), height: int(h)}, nil
}

// window is the part of the source grid an export writes.
type window struct {
	col, row      int // the top-left source pixel
	width, height int
}

// windowOf returns the whole source pixels that cover box, or false when box
// misses the grid.
func (g grid) windowOf(box geom.BBox) (window, bool) {
	const eps = 1e-9 // a box edge on a pixel edge takes no pixel beyond it
	c0 := max(0, int(math.Floor((box.West-g.box.West)/g.res+eps)))
	c1 := min(g.width, int(math.Ceil((box.East-g.box.West)/g.res-eps)))
	r0 := max(0, int(math.Floor((g.box.North-box.North)/g.res+eps)))
	r1 := min(g.height, int(math.Ceil((g.box.North-box.South)/g.res-eps)))
	if box.Empty() || c1 <= c0 || r1 <= r0 {
		return window{}, false
	}
	return window{col: c0, row: r0, width: c1 - c0, height: r1 - r0}, true
}

// lon and lat return the centre of source column c and row r.
func (g grid) lon(c int) float64 { return g.box.West + (float64(c)+0.5)*g.res }
func (g grid) lat(r int) float64 { return g.box.North - (float64(r)+0.5)*g.res }

// source is an open elevation grid.
type source struct {
	grid
	f *os.File
}

// openSource opens the record's grid and checks its size against the
// geometry. Every error is permanent: retrying cannot fix the data.
func openSource(rec exporttask.Record) (*source, error) {
	g, err := gridOf(rec)
	if err != nil {
		return nil, exporttask.Permanent("the DEM record is misconfigured", err)
	}
	path := filepath.Join(rec.Location, SourceFile)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, exporttask.Permanent("the DEM record's elevation data is missing", err)
		}
		return nil, exporttask.Permanent("the DEM record's elevation data cannot be read", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, exporttask.Permanent("the DEM record's elevation data cannot be read", err)
	}
	if want := 4 * int64(g.width) * int64(g.height); st.Size() != want {
		f.Close()
		return nil, exporttask.Permanent("the DEM record's elevation data is corrupt",
			fmt.Errorf("%s holds %d bytes, want %d for %dx%d float32", path, st.Size(), want, g.width, g.height))
	}
	return &source{grid: g, f: f}, nil
}

// readRow reads len(dst)/4 samples of source row r from column c into dst.
func (s *source) readRow(r, c int, dst []byte) error {
	off := (int64(r)*int64(s.width) + int64(c)) * 4
	if _, err := s.f.ReadAt(dst, off); err != nil {
		return exporttask.Permanent("the DEM record's elevation data cannot be read",
			fmt.Errorf("%s row %d: %w", s.f.Name(), r, err))
	}
	return nil
}

func (s *source) Close() error { return s.f.Close() }

// footprintOf converts the record's footprint.
func footprintOf(rec exporttask.Record) (geom.MultiPolygon, error) {
	fp, err := geom.FromGeometry(rec.Footprint)
	if err != nil {
		return nil, fmt.Errorf("record %s footprint: %w", rec.ID, err)
	}
	return fp, nil
}
