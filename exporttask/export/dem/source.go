package dem

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// Format is the catalog.Source.Format of a DEM source.
const Format = "GTiff"

// SourceFile is an open source file as the exporter reads it: *os.File is
// one; [Options].Open may return another (a wrapper that counts reads).
type SourceFile interface {
	io.ReaderAt
	io.Closer
	Stat() (fs.FileInfo, error)
}

// openFile is the default [Options].Open: it opens path through its
// directory (see sourcefs.OpenFile), so a symbolic link that leads out of
// the directory, a FIFO or a device is refused, and a FIFO does not block.
func openFile(path string) (SourceFile, error) {
	f, _, err := sourcefs.OpenFile(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// source is an open, checked GeoTIFF source.
type source struct {
	path string
	file SourceFile
	tif  *geotiff.File
	gt   [6]float64 // GDAL's geotransform, north-up: gt[2] = gt[4] = 0, gt[5] < 0
	crs  *crs.CRS   // the CRS of the GeoKeys; see NeedsWarp
	typ  geotiff.SampleType
}

// openGeoTIFF opens path as a DEM source and checks that this package can
// read it, returning a *export.SourceError when it cannot.
func openGeoTIFF(path string, open func(string) (SourceFile, error)) (*source, error) {
	fh, err := open(path)
	if err != nil {
		fix := "check the path"
		if errors.Is(err, os.ErrPermission) {
			fix = "make it readable by this process"
		}
		return nil, &export.SourceError{File: path, Problem: "cannot be opened (" + pathErrText(err) + ")", Fix: fix, Err: err}
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, &export.SourceError{File: path, Problem: "cannot be read (" + pathErrText(err) + ")", Err: err}
	}
	if st.IsDir() {
		fh.Close()
		return nil, &export.SourceError{File: path, Problem: "a directory, not a GeoTIFF file",
			Fix: "give the .tif file of the elevation model"}
	}
	tif, err := geotiff.Open(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, unreadable(path, err)
	}
	s := &source{path: path, file: fh, tif: tif}
	if serr := s.check(); serr != nil {
		fh.Close()
		return nil, serr
	}
	return s, nil
}

// errText is err's message without the package prefix of the geotiff
// reader, for one-line messages.
func errText(err error) string {
	return strings.TrimPrefix(err.Error(), "geotiff: ")
}

// pathErrText is the message of a file system error without the path
// (the SourceError names the file).
func pathErrText(err error) string {
	var se *sourcefs.Error
	if errors.As(err, &se) {
		return strings.TrimPrefix(se.Error(), se.Name+" ")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// unreadable turns a reading error into a SourceError.
func unreadable(path string, err error) *export.SourceError {
	msg := errText(err)
	fix := "if GDAL reads it, " + compressionFix(filepath.Base(path))
	switch {
	case strings.Contains(msg, "truncated"), strings.Contains(msg, "past the end"):
		fix = "copy or download it again"
	case strings.Contains(msg, "not a TIFF file"):
		fix = convertFix(filepath.Base(path))
	}
	return &export.SourceError{File: path, Problem: "not a readable GeoTIFF (" + msg + ")", Fix: fix, Err: err}
}

// check returns why the file cannot be a DEM source, nil when it can.
func (s *source) check() *export.SourceError {
	f, path := s.tif, s.path
	name := filepath.Base(path)
	bad := func(problem, fix string) *export.SourceError {
		return &export.SourceError{File: path, Problem: problem, Fix: fix}
	}
	if f.SamplesPerPixel > 1 {
		kind := ""
		if f.Photometric == 2 {
			kind = " (RGB)"
		}
		problem := fmt.Sprintf("it has %d bands%s", f.SamplesPerPixel, kind)
		if f.PlanarConfig == 2 {
			problem += " stored band by band (PlanarConfiguration 2)"
		}
		fix := bandFix(name)
		if f.Photometric == 2 {
			fix += ", or register the elevation data the picture was made from (an RGB picture holds colours, not heights)"
		}
		return bad(problem, fix)
	}
	if f.Photometric == 3 {
		return bad("it is a paletted (colour-mapped) image, not heights", paletteFix(name))
	}
	if _, err := f.SampleType(); err != nil {
		return bad(errText(err), sampleTypeFix(name))
	}
	if err := f.Decodable(); err != nil {
		fix := compressionFix(name)
		return bad(errText(err)+" (this reader takes none, LZW, Deflate and PackBits, predictors 1-3)", fix)
	}
	reproject := reprojectFix(name, f)
	c, serr := s.checkCRS()
	if serr != nil {
		return serr
	}
	s.crs = c
	gt, err := f.Geo.GeoTransform()
	if err != nil {
		return bad(errText(err), reproject)
	}
	switch {
	case gt[2] != 0 || gt[4] != 0:
		return bad(fmt.Sprintf("the grid is rotated (geotransform %v)", gt), reproject+" to make it north-up")
	case !(gt[1] > 0) || !(gt[5] < 0):
		return bad(fmt.Sprintf("the grid is not north-up (pixel size %g × %g)", gt[1], gt[5]), reproject+" to make it north-up")
	}
	if serr := s.checkExtent(gt); serr != nil {
		return serr
	}
	s.gt = gt
	s.typ, _ = f.SampleType()
	return nil
}

// openSource opens a record's registered source for an export. Every
// error is permanent: retrying cannot fix the data.
func openSource(rec catalog.Record, open func(string) (SourceFile, error)) (*source, error) {
	if rec.Source == nil {
		return nil, export.Permanent("catalog record "+rec.ID+" has no registered source; register its GeoTIFF with catalog add",
			fmt.Errorf("dem: record %s has no source", rec.ID))
	}
	path, err := export.SourcePath(rec, "")
	if err != nil {
		return nil, err
	}
	s, err := openGeoTIFF(path, open)
	if err != nil {
		return nil, export.Permanent("the source of catalog record "+rec.ID+" cannot be exported: "+err.Error(),
			fmt.Errorf("dem: %w", err))
	}
	return s, nil
}

func (s *source) Close() error { return s.file.Close() }

// res returns the pixel width and height in degrees, both positive.
func (s *source) res() (float64, float64) { return s.gt[1], -s.gt[5] }

// window is the part of the source grid an export writes.
type window struct {
	col, row      int // the top-left source pixel
	width, height int
}

// windowOf returns the source pixels `gdal_translate -projwin west north
// east south` cuts for box (GDAL 3.6, nearest resampling): the first
// column is floor((west-x0)/dx + 0.001), the width floor((east-west)/dx +
// 0.5), and likewise for rows. The window is then clipped to the grid
// (GDAL would fill the part outside with zeros or nodata) and made at least
// one pixel wide and high (GDAL refuses an empty window). It reports false
// when box misses the grid.
func (s *source) windowOf(box geom.BBox) (window, bool) {
	if box.Empty() {
		return window{}, false
	}
	dx, dy := s.res()
	c0 := math.Floor((box.West-s.gt[0])/dx + 0.001)
	r0 := math.Floor((s.gt[3]-box.North)/dy + 0.001)
	w := math.Max(1, math.Floor((box.East-box.West)/dx+0.5))
	h := math.Max(1, math.Floor((box.North-box.South)/dy+0.5))
	c1, r1 := c0+w, r0+h
	c0, r0 = math.Max(c0, 0), math.Max(r0, 0)
	c1, r1 = math.Min(c1, float64(s.tif.Width)), math.Min(r1, float64(s.tif.Height))
	if c1 <= c0 || r1 <= r0 {
		return window{}, false
	}
	return window{col: int(c0), row: int(r0), width: int(c1 - c0), height: int(r1 - r0)}, true
}

// lon and lat return the centre of source column c and row r.
func (s *source) lon(c int) float64 { return s.gt[0] + (float64(c)+0.5)*s.gt[1] }
func (s *source) lat(r int) float64 { return s.gt[3] + (float64(r)+0.5)*s.gt[5] }
