package raster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// FormatGTiff is an imagery GeoTIFF or COG (catalog.Source.Format): 8-bit
// gray, RGB, RGBA or paletted pixels that an export renders into tiles.
const FormatGTiff = "GTiff"

// imagery is an open imagery source: its file and what was read of it.
type imagery struct {
	path string
	file *os.File
	st   os.FileInfo
	tif  *geotiff.File
	img  *geotiff.Imagery
	gt   [6]float64 // the full image's geotransform: north-up
	// lonLat maps lon/lat to the source's CRS; nil when the source is in
	// EPSG:4326 already.
	lonLat func(lon, lat float64) (x, y float64, ok bool)
	box    geom.BBox    // the footprint's bounding box, lon/lat
	res    float64      // the source's pixel size in degrees, as gdalwarp would choose it
	format string       // the export's tile format: TilePNG, TileJPEG or TileAuto
	ring   [][2]float64 // a projected source's outline in lon/lat, nil in EPSG:4326
}

// isTIFF reports whether the file path starts with a TIFF header.
func isTIFF(path string) bool {
	f, _, err := sourcefs.OpenFile(path) // never blocks on a FIFO
	if err != nil {
		return false
	}
	defer f.Close()
	var h [4]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return false
	}
	return tiffMagic(h[:])
}

// openImagery opens path (through its directory: a link leading out of
// it, a FIFO or a device is refused) and checks it as an imagery source,
// returning a *export.SourceError when it cannot be one.
func openImagery(path string) (*imagery, error) {
	fh, _, err := sourcefs.OpenFile(path)
	if err != nil {
		return nil, &export.SourceError{File: path, Problem: "cannot be opened (" + errText(err) + ")", Fix: "check the path", Err: err}
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, &export.SourceError{File: path, Problem: "cannot be read (" + errText(err) + ")", Err: err}
	}
	s := &imagery{path: path, file: fh, st: st}
	if err := s.check(); err != nil {
		fh.Close()
		return nil, err
	}
	return s, nil
}

// check reads the file's IFDs and refuses what cannot be rendered.
func (s *imagery) check() error {
	name := filepath.Base(s.path)
	bad := func(problem, fix string, err error) error {
		return &export.SourceError{File: s.path, Problem: problem, Fix: fix, Err: err}
	}
	out := fixName(s.path, "_image.tif")
	rewrite := "rewrite it as 8-bit imagery with " + command("gdal_translate", "-ot", "Byte", "-scale", "-of", "COG", "-co", "COMPRESS=DEFLATE", name, out)
	tif, err := geotiff.Open(s.file, s.st.Size())
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "geotiff: ")
		if strings.Contains(msg, "truncated") || strings.Contains(msg, "past the end") {
			return bad("is not a readable GeoTIFF ("+msg+")", "copy or download it again", err)
		}
		return bad("is not a readable GeoTIFF ("+msg+")", rewrite, err)
	}
	s.tif = tif
	img, err := tif.Imagery()
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "geotiff: ")
		return bad("is not imagery a RASTER record renders ("+msg+"): it takes 1, 3 or 4 bands of 8-bit samples "+
			"(gray, RGB, RGBA or paletted), compressed with none, LZW, Deflate, PackBits or JPEG",
			"if it holds heights, register it with -domain DEM; to show it as an image, "+rewrite, err)
	}
	s.img = img
	reproject := "reproject it with " + command("gdalwarp", "-t_srs", "EPSG:4326", "-dstalpha", name, out)
	g := tif.Geo
	gt, err := g.GeoTransform()
	if err != nil {
		return bad(strings.TrimPrefix(err.Error(), "geotiff: "), reproject, err)
	}
	switch {
	case gt[2] != 0 || gt[4] != 0:
		return bad(fmt.Sprintf("the grid is rotated (geotransform %v)", gt), reproject+" to make it north-up", nil)
	case !(gt[1] > 0) || !(gt[5] < 0):
		return bad(fmt.Sprintf("the grid is not north-up (pixel size %g × %g)", gt[1], gt[5]), reproject+" to make it north-up", nil)
	}
	s.gt = gt
	switch {
	case g.Code(geotiff.KeyModelType) == 0 && g.Code(geotiff.KeyGeodeticCRS) == 0:
		return bad("it has no CRS (no GeoKeys)", "if its coordinates are WGS 84 longitude/latitude, set it with "+
			command("gdal_edit.py", "-a_srs", "EPSG:4326", name)+"; otherwise "+reproject, nil)
	case g.IsWGS84():
		return s.lonLatFootprint()
	}
	return s.projected(reproject)
}

// lonLatFootprint sets the box and resolution of a source in EPSG:4326.
func (s *imagery) lonLatFootprint() error {
	w, h := s.img.Levels[0].Width, s.img.Levels[0].Height
	west, north := s.gt[0], s.gt[3]
	east, south := west+float64(w)*s.gt[1], north+float64(h)*s.gt[5]
	const slack = 1e-6
	if west < -180-slack-s.gt[1] || east > 180+slack+s.gt[1] || south < -90-slack+s.gt[5] || north > 90+slack-s.gt[5] {
		return &export.SourceError{File: s.path, Problem: fmt.Sprintf("its extent (west %g, south %g, east %g, north %g) is not "+
			"within longitude ±180°, latitude ±90°", west, south, east, north), Fix: "check its georeferencing"}
	}
	s.box = geom.BBox{West: max(west, -180), South: max(south, -90), East: min(east, 180), North: min(north, 90)}
	s.res = s.gt[1]
	return nil
}

// Close releases the file.
func (s *imagery) Close() error { return s.file.Close() }

// unchanged checks that the file is still the one opened.
func (s *imagery) unchanged() error {
	st, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("the source %s: %w", s.path, err)
	}
	if !os.SameFile(st, s.st) || st.Size() != s.st.Size() || !st.ModTime().Equal(s.st.ModTime()) {
		return fmt.Errorf("the source %s changed during the export", s.path)
	}
	return nil
}

// imageryLevels returns the levels of a source of pixel size res degrees
// over box, as GDAL chooses them: the finest level is the one whose pixel
// size is nearest res on a log scale (gdal_translate -of GPKG -co
// TILING_SCHEME=InspireCRS84Quad, its default ZOOM_LEVEL_STRATEGY=AUTO);
// the coarsest is where the raster, at the finest level's pixels, is at
// most one tile wide and high (gdaladdo without factors halves it until
// it is).
func imageryLevels(box geom.BBox, res float64) (minZoom, maxZoom int) {
	prev := pixelDegrees(0)
	z := 0
	for ; z < MaxLevel; z++ {
		if pixelDegrees(z) <= res {
			break
		}
		prev = pixelDegrees(z)
	}
	if z > 0 && prev/res < res/pixelDegrees(z) {
		z--
	}
	maxZoom = z
	p := pixelDegrees(maxZoom)
	// The raster GDAL writes spans the box in the finest level's pixels.
	w := math.Round((box.East - box.West) / p)
	h := math.Round((box.North - box.South) / p)
	minZoom = maxZoom
	for size := max(w, h); size > TileSize && minZoom > 0; size = math.Ceil(size / 2) {
		minZoom--
	}
	return minZoom, maxZoom
}

// The tile formats of rendered tiles ([ParamTileFormat]).
const (
	// TilePNG encodes every tile as PNG, transparent where there is no
	// data.
	TilePNG = "PNG"
	// TileJPEG encodes every tile as JPEG of quality 75 (GDAL's default);
	// pixels without data are black.
	TileJPEG = "JPEG"
	// TileAuto encodes opaque tiles as JPEG and the others as PNG, as
	// GDAL's TILE_FORMAT=AUTO does.
	TileAuto = "AUTO"
)

// inspectImagery inspects an imagery GeoTIFF.
func inspectImagery(ctx context.Context, path string) (catalog.Record, error) {
	s, err := openImagery(path)
	if err != nil {
		return catalog.Record{}, err
	}
	defer s.Close()
	if err := ctx.Err(); err != nil {
		return catalog.Record{}, err
	}
	minZoom, maxZoom := imageryLevels(s.box, s.res)
	format := TilePNG
	if s.img.JPEG {
		format = TileAuto
	}
	b := s.box
	outline := []exporttask.Position{{b.West, b.South}, {b.East, b.South}, {b.East, b.North}, {b.West, b.North}, {b.West, b.South}}
	if s.ring != nil {
		outline = outline[:0]
		for _, p := range s.ring {
			outline = append(outline, exporttask.Position{min(max(p[0], -180), 180), min(max(p[1], -90), 90)})
		}
	}
	return catalog.Record{Domain: exporttask.DomainRaster, MinZoom: minZoom, MaxZoom: maxZoom,
		Footprint: exporttask.NewPolygon(outline),
		Source:    &catalog.Source{Path: path, Format: FormatGTiff, TileFormat: format, Size: s.st.Size(), ModTime: s.st.ModTime()}}, nil
}

// openImagerySource opens rec's imagery source for an export.
func openImagerySource(rec catalog.Record) (*source, error) {
	p, err := export.SourcePath(rec, "")
	if err != nil {
		return nil, err
	}
	s, err := openImagery(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, export.Permanent("the source of catalog record "+rec.ID+" is missing", err)
		}
		reason := "the source of catalog record " + rec.ID + " cannot be rendered"
		var se *export.SourceError
		if errors.As(err, &se) {
			reason += ": " + se.Problem // without the server's path
		}
		return nil, export.Permanent(reason, fmt.Errorf("raster: %w", err))
	}
	return &source{path: p, format: FormatGTiff, imagery: s}, nil
}

// useTileFormat sets the tile format of an export of an imagery source
// and makes its renderer; it does nothing for other sources.
func (s *source) useTileFormat(format string) {
	if s.imagery == nil {
		return
	}
	s.imagery.format = format
	s.render = newRenderer(s.imagery, format)
}

// estimatedTileBytes is what a rendered tile is assumed to take before
// it is rendered (for selections, estimates and quotas).
func estimatedTileBytes(format string) int64 {
	switch format {
	case TileJPEG:
		return 24 << 10
	case TileAuto:
		return 32 << 10
	}
	return 96 << 10
}

// MaxRenderedTiles is the most tiles an export of an imagery record
// renders at one level: about a 250,000 × 250,000-pixel image at its finest
// level. A request selecting more fails with a permanent error (a file
// declaring a larger image is most likely hostile: a real one takes
// hundreds of gigabytes).
const MaxRenderedTiles = 1 << 20

// listImagery returns the tiles of level z within r that meet the
// source's footprint box, each with an estimated size; more than
// MaxRenderedTiles is an error, before anything is allocated for them.
func (s *source) listImagery(z int, r tileRange) ([]tileEntry, error) {
	f := rangeOf(s.imagery.box, z)
	r = tileRange{Col0: max(r.Col0, f.Col0), Col1: min(r.Col1, f.Col1), Row0: max(r.Row0, f.Row0), Row1: min(r.Row1, f.Row1)}
	if n := r.Count(); n > MaxRenderedTiles {
		return nil, &badSource{fmt.Sprintf("level %d would render %d tiles, more than the %d an export renders at one level "+
			"(MaxRenderedTiles); export a smaller region", z, n, MaxRenderedTiles)}
	}
	size := estimatedTileBytes(s.imagery.format)
	var out []tileEntry
	for row := r.Row0; row <= r.Row1 && r.Col0 <= r.Col1; row++ {
		for col := r.Col0; col <= r.Col1; col++ {
			out = append(out, tileEntry{col: col, row: row, size: size})
		}
	}
	return out, nil
}

// renderOne renders one tile, encoded (for the thumbnails); a tile
// without data is a transparent PNG.
func (s *source) renderOne(z int, col, row int64) ([]byte, error) {
	rd := s.render
	w := rd.newWork()
	if _, err := rd.render(w, z, col, row); err != nil {
		return nil, err
	}
	return rd.encode(w)
}
