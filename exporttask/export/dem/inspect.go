package dem

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Inspect reads the GeoTIFF src.Path names (resolved to an absolute path)
// and returns what a DEM record of it holds: Domain DEM; Footprint, the
// bounding box of its valid pixels (those that are not the GDAL_NODATA
// value, nor NaN), in longitude/latitude: for a source in another CRS,
// the box of the valid pixels' area transformed with densified edges (see
// crs.Footprint); Resolution, the pixel width in degrees (pixels need not
// be square: the exporter keeps both sizes), or for a source in another
// CRS the pixel size `gdalwarp -t_srs EPSG:4326` would choose; and Source
// with the absolute Path, Format "GTiff", Size and ModTime. The file must
// be a one-band GeoTIFF or COG, in EPSG:4326 or a CRS the crs package
// transforms, that the package can decode; see the package documentation. A source it cannot export, or one without a
// valid pixel, is a *export.SourceError whose message names the file and
// the fix.
//
// The valid-pixel box is found from the full-resolution image, whatever
// overviews the file has, reading its blocks one at a time from the
// outside in and skipping those that lie inside the box found so far: a
// DEM valid up to its edges costs only its border blocks, and memory is
// one block whatever the file's size.
func Inspect(ctx context.Context, src catalog.Source) (catalog.Record, error) {
	path, err := filepath.Abs(src.Path)
	if err != nil {
		return catalog.Record{}, &export.SourceError{File: src.Path, Problem: "has no absolute path (" + err.Error() + ")", Err: err}
	}
	// A link is registered as the file it leads to: exports open the
	// registered path through its directory and follow no link out of it.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	st, err := os.Stat(path)
	if err != nil {
		return catalog.Record{}, &export.SourceError{File: path, Problem: "cannot be read (" + pathErrText(err) + ")", Fix: "check the path", Err: err}
	}
	s, err := openGeoTIFF(path, openFile)
	if err != nil {
		return catalog.Record{}, err
	}
	defer s.Close()
	box, ok, err := s.validBox(ctx)
	if err != nil {
		return catalog.Record{}, err
	}
	if !ok {
		return catalog.Record{}, &export.SourceError{File: path,
			Problem: fmt.Sprintf("every pixel is nodata (GDAL_NODATA %q)", s.tif.NoData),
			Fix:     allNoDataFix(filepath.Base(path))}
	}
	west, south, east, north, res, err := s.extent(box)
	if err != nil {
		return catalog.Record{}, &export.SourceError{File: path, Problem: "its valid area cannot be transformed to longitude/latitude (" + err.Error() + ")", Err: err}
	}
	return catalog.Record{
		Domain:     exporttask.DomainDEM,
		Footprint:  exporttask.NewPolygon([]exporttask.Position{{west, south}, {east, south}, {east, north}, {west, north}, {west, south}}),
		Resolution: res,
		Source: &catalog.Source{
			Path: path, Format: Format, Size: st.Size(), ModTime: st.ModTime(),
		},
	}, nil
}

// extent returns the longitude/latitude box of the pixels b and the
// record's resolution in degrees.
func (s *source) extent(b pixelBox) (west, south, east, north, res float64, err error) {
	if !NeedsWarp(s.crs) {
		west = max(-180, s.gt[0]+float64(b.c0)*s.gt[1])
		east = min(180, s.gt[0]+float64(b.c1+1)*s.gt[1])
		north = min(90, s.gt[3]+float64(b.r0)*s.gt[5])
		south = max(-90, s.gt[3]+float64(b.r1+1)*s.gt[5])
		return west, south, east, north, s.gt[1], nil
	}
	box, err := s.footprint(b)
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	res, err = s.warpResolution()
	return box.West, box.South, box.East, box.North, res, err
}

// pixelBox is an inclusive range of pixel columns and rows.
type pixelBox struct{ c0, r0, c1, r1 int }

// contains reports whether b holds the whole of o.
func (b pixelBox) contains(o pixelBox) bool {
	return o.c0 >= b.c0 && o.c1 <= b.c1 && o.r0 >= b.r0 && o.r1 <= b.r1
}

// validBox returns the smallest box of the image's valid pixels, false
// when there is none. Blocks are visited ring by ring from the image's
// edge inwards; a block inside the box found so far cannot change it and
// is not read.
func (s *source) validBox(ctx context.Context) (pixelBox, bool, error) {
	f := s.tif
	br, err := f.Blocks()
	if err != nil {
		return pixelBox{}, false, unreadable(s.path, err)
	}
	valid := f.Valid()
	box := pixelBox{c0: math.MaxInt, r0: math.MaxInt, c1: -1, r1: -1}
	nx, ny := f.BlocksAcross(), f.BlocksDown()
	visit := func(bx, by int) error {
		blk := pixelBox{c0: bx * f.BlockWidth, r0: by * f.BlockHeight,
			c1: min((bx+1)*f.BlockWidth, f.Width) - 1, r1: min((by+1)*f.BlockHeight, f.Height) - 1}
		if box.contains(blk) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := br.Block(bx, by)
		if err != nil {
			return unreadable(s.path, err)
		}
		for r := blk.r0; r <= blk.r1; r++ {
			i := (r - blk.r0) * f.BlockWidth
			first := -1
			last := -1
			for c := blk.c0; c <= blk.c1; c++ {
				if valid(b, i+c-blk.c0) {
					if first < 0 {
						first = c
					}
					last = c
				}
			}
			if first < 0 {
				continue
			}
			box.c0, box.c1 = min(box.c0, first), max(box.c1, last)
			box.r0, box.r1 = min(box.r0, r), max(box.r1, r)
		}
		return nil
	}
	for k := 0; 2*k < nx && 2*k < ny; k++ {
		// Ring k: block rows k and ny-1-k, block columns k and nx-1-k.
		for bx := k; bx < nx-k; bx++ {
			if err := visit(bx, k); err != nil {
				return box, false, err
			}
			if ny-1-k != k {
				if err := visit(bx, ny-1-k); err != nil {
					return box, false, err
				}
			}
		}
		for by := k + 1; by < ny-1-k; by++ {
			if err := visit(k, by); err != nil {
				return box, false, err
			}
			if nx-1-k != k {
				if err := visit(nx-1-k, by); err != nil {
					return box, false, err
				}
			}
		}
	}
	return box, box.c1 >= 0, nil
}
