package raster

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// The fixes suggested for sources on another grid.
const (
	fixTMS = "rebuild with `gdal2tiles.py -p geodetic --tmscompatible`"
	fixXYZ = "rebuild with `gdal2tiles.py -p geodetic --tmscompatible --xyz`"
)

// Inspect reads the source src names and returns what a record of it
// holds: Footprint, levels or resolution, and Source completed (absolute
// Path, Format, Size, ModTime). A source this package cannot export is a
// *export.SourceError.
//
// The source is imagery to render, or a tile pyramid on the grid of this
// package (EPSG:4326, two 256×256 tiles at level 0: GDAL's
// InspireCRS84Quad):
//
//   - Format "GTiff" (or a file starting with a TIFF header, whatever
//     the format): a GeoTIFF or COG of 8-bit imagery, 1, 3 or 4 bands
//     (gray, RGB, RGBA, paletted), with nodata, an alpha band or a mask
//     (see geotiff.File.Imagery), north-up in EPSG:4326. Footprint is
//     its extent; MaxZoom the level whose pixel size is nearest the
//     source's, MinZoom the level at which the image is at most one tile
//     wide and high (the levels `gdal_translate -of GPKG -co
//     TILING_SCHEME=InspireCRS84Quad` and `gdaladdo` make);
//     Source.TileFormat "AUTO" for a JPEG-compressed source, else "PNG".
//   - Format "GPKG": a GeoPackage. src.Table names its tile table; when
//     empty, the GeoPackage must hold one only. Its tile matrix set must be
//     EPSG:4326 over -180,-90,180,90 and gpkg_tile_matrix must give each
//     level the grid's 2^(z+1) × 2^z tiles of 256 pixels.
//   - Format "TMS": a directory written by `gdal2tiles.py -p geodetic
//     --tmscompatible`: z/x/y.png (or .jpg, .webp) with row 0 at the
//     bottom, and a tilemapresource.xml with SRS EPSG:4326 and profile
//     geodetic. Without --tmscompatible, gdal2tiles uses another grid (one
//     tile at level 0) but writes the same tilemapresource.xml; Inspect
//     tells them apart by where the tiles lie against the file's
//     BoundingBox, and refuses that grid.
//   - Format "XYZ": the same with row 0 at the top (gdal2tiles --xyz,
//     which writes no tilemapresource.xml; one is checked when present).
//     Without it, the viewer pages gdal2tiles writes beside the tiles are
//     checked for another profile or grid; without them (gdal2tiles -w
//     none), the grid is taken on the caller's word.
//   - Format "": "GPKG" for a file, "TMS" for a directory.
//
// Tiles must be PNG, JPEG or WebP images of 256×256 pixels; the header of
// the first tile of each level is checked (an export's thumbnails check
// the header of each tile they decode). In a directory, every tile must
// be a regular file inside it (a relative link to one inside is followed;
// a link leading out, a FIFO or a device is refused) of at most
// MaxTileBytes; the directory is read through sourcefs. MinZoom and MaxZoom are the first and last
// levels that hold tiles; levels between them may have none. Footprint is
// a rectangle: the extent of the tiles at MaxZoom, trimmed to the data's
// extent that the GeoPackage's gpkg_contents or the BoundingBox of
// tilemapresource.xml declares (when it meets them). A bounding box
// rather than the outline of the tiles keeps the record small; an export
// copies only tiles the source holds, so it adds none. Title is the
// GeoPackage table's identifier or the tile map's Title.
//
// Source.Size and ModTime are those of the GeoPackage file, of
// tilemapresource.xml, or for an XYZ directory without one, of the
// directory itself: its modification time changes when a level
// directory is added, removed or renamed, not when tiles are rewritten in
// place.
func Inspect(ctx context.Context, src catalog.Source) (catalog.Record, error) {
	if src.Path == "" {
		return catalog.Record{}, &export.SourceError{File: "(no path)", Problem: "no source was given",
			Fix: "give a GeoPackage file or a gdal2tiles directory"}
	}
	path, err := filepath.Abs(src.Path)
	if err != nil {
		return catalog.Record{}, fmt.Errorf("raster: %w", err)
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return catalog.Record{}, &export.SourceError{File: path, Problem: "does not exist", Fix: "check the path", Err: err}
	}
	if err != nil {
		return catalog.Record{}, &export.SourceError{File: path, Problem: "cannot be read: " + errText(err), Err: err}
	}
	format := strings.ToUpper(src.Format)
	if format == "" {
		format = FormatGPKG
		if st.IsDir() {
			format = FormatTMS
		}
	}
	if !st.IsDir() && (format == FormatGPKG || format == strings.ToUpper(FormatGTiff)) && isTIFF(path) {
		// A GeoTIFF given as RASTER is imagery, rendered at export.
		return inspectImagery(ctx, path)
	}
	var p *pyramid
	switch format {
	case strings.ToUpper(FormatGTiff):
		return catalog.Record{}, &export.SourceError{File: path, Problem: "is not a GeoTIFF file",
			Fix: "give a GeoTIFF or COG of 8-bit imagery"}
	case FormatGPKG:
		if st.IsDir() {
			return catalog.Record{}, &export.SourceError{File: path, Problem: "is a directory, not a GeoPackage file",
				Fix: "give a .gpkg file, or the format of the tile directory (TMS or XYZ)"}
		}
		p, err = inspectGPKG(ctx, path, src.Table, st.Size())
	case FormatTMS, FormatXYZ:
		if !st.IsDir() {
			return catalog.Record{}, &export.SourceError{File: path, Problem: "is a file, not a tile directory",
				Fix: "give the directory gdal2tiles wrote, or the GeoPackage format for a .gpkg file"}
		}
		if src.Table != "" {
			return catalog.Record{}, &export.SourceError{File: path,
				Problem: fmt.Sprintf("is a tile directory, and a table (%q) is for a GeoPackage only", src.Table),
				Fix:     "leave the table out"}
		}
		p, err = inspectDir(ctx, path, format)
	default:
		return catalog.Record{}, &export.SourceError{File: path,
			Problem: fmt.Sprintf("the format %q is not one RASTER records read", src.Format), Fix: "give GPKG, TMS, XYZ or GTiff"}
	}
	if err != nil {
		return catalog.Record{}, err
	}
	if err := ctx.Err(); err != nil {
		return catalog.Record{}, err
	}
	return p.record(catalog.Source{Path: path, Format: format, Table: p.table}), nil
}

// pyramid is what Inspect found in a source.
type pyramid struct {
	title    string
	table    string      // GPKG
	index    os.FileInfo // the file Source.Size and ModTime come from
	minZoom  int
	maxZoom  int
	finest   tileRange // the tiles' columns and rows at maxZoom
	declared geom.BBox // the data's extent the source declares; empty if none
}

// record is the record of the pyramid.
func (p *pyramid) record(src catalog.Source) catalog.Record {
	first, last := tileBox(p.maxZoom, p.finest.Col0, p.finest.Row0), tileBox(p.maxZoom, p.finest.Col1, p.finest.Row1)
	box := geom.BBox{West: first.West, North: first.North, East: last.East, South: last.South}
	if t := box.Intersect(p.declared); !p.declared.Empty() && t.Width() > 0 && t.Height() > 0 {
		box = t
	}
	src.Size, src.ModTime = p.index.Size(), p.index.ModTime()
	return catalog.Record{Domain: exporttask.DomainRaster, Title: p.title, MinZoom: p.minZoom, MaxZoom: p.maxZoom,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{box.West, box.South}, {box.East, box.South},
			{box.East, box.North}, {box.West, box.North}, {box.West, box.South}}),
		Source: &src}
}

// levelSummary is the tiles of one level: how many, and the columns and
// rows (grid rows, 0 at the top) they span.
type levelSummary struct {
	z     int
	count int64
	r     tileRange
}

// add takes the pyramid's levels from the summaries, in increasing order.
func (p *pyramid) add(levels []levelSummary, file string) error {
	if len(levels) == 0 {
		return &export.SourceError{File: file, Problem: "holds no tiles", Fix: "give a pyramid with tiles"}
	}
	p.minZoom, p.maxZoom = levels[0].z, levels[len(levels)-1].z
	p.finest = levels[len(levels)-1].r
	return nil
}

// checkGrid refuses tiles of level z outside the grid.
func checkGrid(file string, z int, r tileRange, fix string) error {
	if z > MaxLevel {
		return &export.SourceError{File: file, Problem: fmt.Sprintf("has tiles at level %d, deeper than %d", z, MaxLevel),
			Fix: "give levels up to " + fmt.Sprint(MaxLevel)}
	}
	w, h := matrixSize(z)
	if r.Col0 < 0 || r.Row0 < 0 || r.Col1 >= w || r.Row1 >= h {
		return &export.SourceError{File: file, Problem: fmt.Sprintf("has tiles at level %d in columns %d..%d and rows %d..%d, "+
			"outside the EPSG:4326 grid of two tiles at level 0 (%d columns, %d rows at that level)",
			z, r.Col0, r.Col1, r.Row0, r.Row1, w, h), Fix: fix}
	}
	return nil
}

// sqliteHeader is the first page's header of an SQLite database.
const sqliteHeader = 100

// checkSQLite refuses a file that is not an SQLite database, or is shorter
// than its header says (a truncated copy): SQLite itself would only fail
// once a query reaches a missing page.
func checkSQLite(path string, size int64) error {
	f, _, err := sourcefs.OpenFile(path) // a FIFO or a device is refused, never blocks
	if err != nil {
		return &export.SourceError{File: path, Problem: "cannot be read: " + errText(err), Err: err}
	}
	defer f.Close()
	h := make([]byte, sqliteHeader)
	n, err := io.ReadFull(f, h)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return &export.SourceError{File: path, Problem: "cannot be read: " + errText(err), Err: err}
	}
	if n < len("SQLite format 3\x00") || !bytes.HasPrefix(h, []byte("SQLite format 3\x00")) {
		if tiffMagic(h[:n]) { // Inspect reads a TIFF as imagery before this
			return &export.SourceError{File: path, Problem: "is a GeoTIFF, not a GeoPackage",
				Fix: "register it without -format: a GeoTIFF of 8-bit imagery is a RASTER source as it is"}
		}
		return &export.SourceError{File: path, Problem: "is not a GeoPackage (not an SQLite database)",
			Fix: "give a GeoPackage, or the format of a tile directory"}
	}
	if n < sqliteHeader {
		return &export.SourceError{File: path, Problem: fmt.Sprintf("is truncated (%d bytes)", size),
			Fix: "copy it again in full from where it was made"}
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	changes, pages, validFor := binary.BigEndian.Uint32(h[24:28]), int64(binary.BigEndian.Uint32(h[28:32])),
		binary.BigEndian.Uint32(h[92:96])
	if pages > 0 && validFor == changes && size < pages*pageSize {
		return &export.SourceError{File: path, Problem: fmt.Sprintf("is truncated: %d bytes, where its header counts "+
			"%d pages of %d bytes (%d bytes)", size, pages, pageSize, pages*pageSize),
			Fix: "copy it again in full from where it was made"}
	}
	return nil
}

// inspectGPKG inspects a GeoPackage.
func inspectGPKG(ctx context.Context, path, table string, size int64) (*pyramid, error) {
	if err := checkSQLite(path, size); err != nil {
		return nil, err
	}
	db, err := openRead(path)
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	defer db.Close()
	sqlCtx, cancel := context.WithTimeout(ctx, inspectTimeout)
	defer cancel()
	p, err := inspectTables(sqlCtx, db, path, table)
	if err != nil {
		var se *export.SourceError
		if errors.As(err, &se) || ctx.Err() != nil {
			return nil, err
		}
		if sqlCtx.Err() != nil {
			return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("took more than %v to read, "+
				"more than a GeoPackage of any size takes: it may be damaged", inspectTimeout),
				Fix: "copy it again in full, or rebuild it", Err: err}
		}
		return nil, &export.SourceError{File: path, Problem: "cannot be read as a GeoPackage: " + errText(err),
			Fix: "copy it again in full, or rebuild it", Err: err}
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	p.index = st
	return p, nil
}

// inspectTables inspects the tables of a GeoPackage: errors that are not
// *export.SourceError are the database's.
func inspectTables(ctx context.Context, db *sql.DB, path, table string) (*pyramid, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table'
		AND name IN ('gpkg_contents', 'gpkg_spatial_ref_sys', 'gpkg_tile_matrix_set', 'gpkg_tile_matrix')`).Scan(&n)
	if err != nil {
		return nil, err
	}
	if n != 4 {
		if err := vectorSourceError(ctx, db, path); err != nil {
			return nil, err
		}
		return nil, &export.SourceError{File: path, Problem: "is not a GeoPackage of tiles (it lacks gpkg_contents, " +
			"gpkg_spatial_ref_sys, gpkg_tile_matrix_set or gpkg_tile_matrix)", Fix: gpkgFix(path, "")}
	}
	tables, err := tileTables(ctx, db)
	if err != nil {
		return nil, err
	}
	switch {
	case len(tables) == 0:
		if err := vectorSourceError(ctx, db, path); err != nil {
			return nil, err
		}
		return nil, &export.SourceError{File: path, Problem: "holds no tile table (gpkg_contents lists none of data_type tiles)",
			Fix: gpkgFix(path, "")}
	case table == "" && len(tables) > 1:
		return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("holds %d tile tables (%s)", len(tables),
			strings.Join(tables, ", ")), Fix: "choose one with -table NAME"}
	case table == "":
		table = tables[0]
	case !slices.Contains(tables, table):
		return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("has no tile table %q (its tile tables: %s)",
			table, strings.Join(tables, ", ")), Fix: "choose one of them with -table NAME"}
	}
	if err := requireTable(ctx, db, table, tileColumns...); err != nil {
		var bad *badSource
		if !errors.As(err, &bad) {
			return nil, err
		}
		return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("lists tile table %q in gpkg_contents, but %v",
			table, bad), Fix: gpkgFix(path, table)}
	}
	p := &pyramid{table: table, declared: geom.BBox{West: 1, East: 0}}
	var ident sql.NullString
	var w, s, e, nn sql.NullFloat64
	if err := db.QueryRowContext(ctx, `SELECT identifier, min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = ?`,
		table).Scan(&ident, &w, &s, &e, &nn); err != nil {
		return nil, err
	}
	p.title = ident.String
	if w.Valid && s.Valid && e.Valid && nn.Valid {
		p.declared = geom.BBox{West: w.Float64, South: s.Float64, East: e.Float64, North: nn.Float64}
	}
	if err := checkMatrixSet(ctx, db, path, table); err != nil {
		return nil, err
	}
	if err := checkMatrix(ctx, db, table); err != nil {
		return nil, &export.SourceError{File: path, Problem: err.Error(), Fix: gpkgFix(path, table)}
	}

	q := quoteIdent(table)
	rows, err := db.QueryContext(ctx, `SELECT zoom_level, count(*), min(tile_column), max(tile_column),
		min(tile_row), max(tile_row) FROM `+q+` GROUP BY zoom_level ORDER BY zoom_level`)
	if err != nil {
		return nil, err
	}
	var levels []levelSummary
	for rows.Next() {
		var l levelSummary
		if err := rows.Scan(&l.z, &l.count, &l.r.Col0, &l.r.Col1, &l.r.Row0, &l.r.Row1); err != nil {
			rows.Close()
			return nil, err
		}
		levels = append(levels, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, l := range levels {
		if l.z < 0 {
			return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("table %q has tiles at level %d", table, l.z),
				Fix: gpkgFix(path, table)}
		}
		if err := checkGrid(path, l.z, l.r, gpkgFix(path, table)); err != nil {
			return nil, err
		}
		if err := requireLevels(ctx, db, table, l.z, l.z); err != nil {
			return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("table %q: %v, where it has tiles", table, err),
				Fix: gpkgFix(path, table)}
		}
		var col, row int64
		var data []byte
		if err := db.QueryRowContext(ctx, `SELECT tile_column, tile_row, tile_data FROM `+q+` WHERE zoom_level = ? LIMIT 1`,
			l.z).Scan(&col, &row, &data); err != nil {
			return nil, err
		}
		if err := checkTile(data); err != nil {
			return nil, &export.SourceError{File: path, Problem: fmt.Sprintf("tile %d/%d/%d of table %q %v", l.z, col, row, table, err),
				Fix: "tiles must be PNG, JPEG or WebP images of 256×256 pixels; " + gpkgFix(path, table)}
		}
	}
	if err := p.add(levels, path); err != nil {
		return nil, err
	}
	return p, nil
}

// checkMatrixSet refuses a tile matrix set other than EPSG:4326 over the
// whole world.
func checkMatrixSet(ctx context.Context, db *sql.DB, path, table string) error {
	var srsID int64
	var org sql.NullString
	var orgID sql.NullInt64
	var w, s, e, n float64
	err := db.QueryRowContext(ctx, `SELECT m.srs_id, r.organization, r.organization_coordsys_id, m.min_x, m.min_y, m.max_x, m.max_y
		FROM gpkg_tile_matrix_set m LEFT JOIN gpkg_spatial_ref_sys r ON r.srs_id = m.srs_id WHERE m.table_name = ?`,
		table).Scan(&srsID, &org, &orgID, &w, &s, &e, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return &export.SourceError{File: path, Problem: fmt.Sprintf("gpkg_tile_matrix_set has no row for table %q", table),
			Fix: gpkgFix(path, table)}
	}
	if err != nil {
		return err
	}
	crs := fmt.Sprintf("%s:%d", strings.ToUpper(org.String), orgID.Int64)
	if !org.Valid {
		crs = fmt.Sprintf("srs_id %d", srsID)
	}
	switch {
	case crs == "EPSG:3857" || crs == "EPSG:900913":
		return &export.SourceError{File: path, Problem: fmt.Sprintf("table %q is on the Web Mercator grid (%s), "+
			"not the EPSG:4326 grid of two tiles at level 0", table, crs), Fix: gpkgFix(path, table)}
	case crs != "EPSG:4326":
		return &export.SourceError{File: path, Problem: fmt.Sprintf("table %q is on a grid in %s, "+
			"not the EPSG:4326 grid of two tiles at level 0", table, crs), Fix: gpkgFix(path, table)}
	}
	const eps = 1e-9
	if math.Abs(w+180) > eps || math.Abs(s+90) > eps || math.Abs(e-180) > eps || math.Abs(n-90) > eps {
		return &export.SourceError{File: path, Problem: fmt.Sprintf("table %q has a tile matrix set over %g,%g,%g,%g, "+
			"not -180,-90,180,90 (the EPSG:4326 grid of two tiles at level 0)", table, w, s, e, n), Fix: gpkgFix(path, table)}
	}
	return nil
}

// inspectDir inspects a gdal2tiles directory.
func inspectDir(ctx context.Context, dir, format string) (*pyramid, error) {
	p := &pyramid{declared: geom.BBox{West: 1, East: 0}}
	fix := fixTMS
	if format == FormatXYZ {
		fix = fixXYZ
	}
	xmlPath := filepath.Join(dir, TileMapResource)
	src, err := openDir(dir, format)
	if err != nil {
		return nil, &export.SourceError{File: dir, Problem: "cannot be read: " + errText(err), Err: err}
	}
	defer src.Close()
	tm, err := readTileMap(src.root)
	switch {
	case errors.Is(err, fs.ErrNotExist) && format == FormatTMS:
		return nil, &export.SourceError{File: dir, Problem: "has no " + TileMapResource + ", so it is not a TMS directory " +
			"written by gdal2tiles", Fix: "give the XYZ format if its rows are numbered from the top (gdal2tiles --xyz)"}
	case errors.Is(err, fs.ErrNotExist):
		if grid, err := checkViewers(dir, src.root); err != nil {
			var se *export.SourceError
			if grid >= 0 && errors.As(err, &se) {
				if src.ext, _ = dirExtension(src.root); src.ext != "" {
					se.Fix = wmsFix(dir, src, grid, se.Fix)
				}
			}
			return nil, err
		}
		tm = nil
	case err != nil:
		if fe := (*sourcefs.Error)(nil); errors.As(err, &fe) {
			return nil, confined(dir, fe)
		}
		return nil, &export.SourceError{File: xmlPath, Problem: "cannot be read: " + errText(err), Fix: fix, Err: err}
	default:
		if err := checkTileMap(xmlPath, tm); err != nil {
			var se *export.SourceError
			if isMercator(tm) && errors.As(err, &se) {
				src.ext = tm.TileFormat.Extension
				se.Fix = wmsFix(dir, src, wmsMercator, se.Fix)
			}
			return nil, err
		}
		p.title, p.declared = tm.Title, tm.bbox()
	}
	if tm != nil {
		src.ext = tm.TileFormat.Extension
	} else if src.ext, err = dirExtension(src.root); err != nil {
		if se := (*sourcefs.Error)(nil); errors.As(err, &se) {
			return nil, confined(dir, se)
		}
		return nil, &export.SourceError{File: dir, Problem: "holds no tiles: " + err.Error(), Fix: "give a pyramid with tiles"}
	}
	zs, err := dirLevels(src.root)
	if err != nil {
		if se := (*sourcefs.Error)(nil); errors.As(err, &se) {
			return nil, confined(dir, se)
		}
		return nil, &export.SourceError{File: dir, Problem: "cannot be read: " + errText(err), Err: err}
	}
	var levels []levelSummary
	for _, z := range zs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if z > MaxLevel {
			return nil, checkGrid(dir, z, tileRange{}, fix)
		}
		l := levelSummary{z: z, r: tileRange{Col0: math.MaxInt64, Row0: math.MaxInt64, Col1: -1, Row1: -1}}
		var first string
		_, h := matrixSize(z)
		err := src.walkLevel(z, func(col, fileRow int64, name string, _ int64) error {
			if fileRow >= h {
				return &export.SourceError{File: filepath.Join(dir, filepath.FromSlash(name)), Problem: fmt.Sprintf("lies outside the EPSG:4326 grid of two tiles "+
					"at level 0 (level %d has rows 0..%d)", z, h-1), Fix: fix}
			}
			row := src.flipRow(z, fileRow)
			l.count++
			l.r.Col0, l.r.Col1 = min(l.r.Col0, col), max(l.r.Col1, col)
			l.r.Row0, l.r.Row1 = min(l.r.Row0, row), max(l.r.Row1, row)
			if first == "" {
				first = name
			}
			return nil
		}, func(int64) bool { return true })
		if err != nil {
			var se *export.SourceError
			if errors.As(err, &se) {
				return nil, err
			}
			if fe := (*sourcefs.Error)(nil); errors.As(err, &fe) {
				return nil, confined(dir, fe)
			}
			return nil, &export.SourceError{File: dir, Problem: "cannot be read: " + errText(err), Err: err}
		}
		if l.count == 0 {
			continue
		}
		if err := checkGrid(dir, z, l.r, fix); err != nil {
			return nil, err
		}
		data, err := src.root.ReadFile(first, MaxTileBytes)
		if fe := (*sourcefs.Error)(nil); errors.As(err, &fe) {
			return nil, confined(dir, fe)
		}
		if err != nil {
			return nil, &export.SourceError{File: filepath.Join(dir, filepath.FromSlash(first)), Problem: "cannot be read: " + errText(err), Err: err}
		}
		if err := checkTile(data); err != nil {
			return nil, &export.SourceError{File: filepath.Join(dir, filepath.FromSlash(first)), Problem: err.Error(),
				Fix: "tiles must be PNG, JPEG or WebP images of 256×256 pixels"}
		}
		levels = append(levels, l)
	}
	if err := p.add(levels, dir); err != nil {
		return nil, err
	}
	if tm != nil {
		oneTileFix := func() string { return wmsFix(dir, src, wmsOneTile, fixTMS) }
		if err := checkGeodeticGrid(dir, tm, p, oneTileFix); err != nil {
			return nil, err
		}
		p.index, err = os.Stat(xmlPath)
	} else {
		p.index, err = os.Stat(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	return p, nil
}

// checkTileMap refuses a tilemapresource.xml of another grid than the
// geodetic one.
func checkTileMap(path string, tm *tileMap) error {
	srs, profile := strings.ToUpper(strings.TrimSpace(tm.SRS)), tm.TileSets.Profile
	switch {
	case isMercator(tm):
		return &export.SourceError{File: path, Problem: "describes tiles on the Web Mercator grid (gdal2tiles -p mercator, " +
			"SRS " + tm.SRS + "), not the EPSG:4326 grid of two tiles at level 0", Fix: fixTMS}
	case srs != "EPSG:4326" || profile != "geodetic":
		return &export.SourceError{File: path, Problem: fmt.Sprintf("describes SRS %q with profile %q, "+
			"not EPSG:4326 with profile geodetic", tm.SRS, profile), Fix: fixTMS}
	case tm.TileFormat.Width != TileSize || tm.TileFormat.Height != TileSize:
		return &export.SourceError{File: path, Problem: fmt.Sprintf("describes tiles of %d×%d pixels, not %d×%d",
			tm.TileFormat.Width, tm.TileFormat.Height, TileSize, TileSize), Fix: fixTMS}
	case !isTileExtension(tm.TileFormat.Extension):
		return &export.SourceError{File: path, Problem: fmt.Sprintf("describes tiles of extension %q, not png, jpg, jpeg or webp",
			tm.TileFormat.Extension), Fix: "rebuild with `gdal2tiles.py -p geodetic --tmscompatible --tiledriver PNG`"}
	}
	for _, s := range tm.TileSets.Sets {
		want := 0.703125 / math.Ldexp(1, s.Order)
		if math.Abs(s.UnitsPerPixel-want) > want*1e-9 {
			return &export.SourceError{File: path, Problem: fmt.Sprintf("gives level %d %g units per pixel, not the "+
				"geodetic grid's %g", s.Order, s.UnitsPerPixel, want), Fix: fixTMS}
		}
	}
	return nil
}

// isMercator reports whether tm describes gdal2tiles' Web Mercator grid.
func isMercator(tm *tileMap) bool {
	srs := strings.ToUpper(strings.TrimSpace(tm.SRS))
	return tm.TileSets.Profile == "mercator" || srs == "EPSG:3857" || srs == "EPSG:900913" || srs == "OSGEO:41001"
}

// checkGeodeticGrid tells which of gdal2tiles' geodetic grids the tiles are
// on (see geodeticGrids) and refuses all but this package's; oneTileFix
// gives the fix of tiles on the grid of one tile at level 0.
func checkGeodeticGrid(dir string, tm *tileMap, p *pyramid, oneTileFix func() string) error {
	z, r := p.maxZoom, p.finest
	_, h := matrixSize(z)
	// Grid rows (0 at the top) to TMS rows (0 at the bottom).
	fits := geodeticGrids(tm.bbox(), z, r.Col0, r.Col1, h-1-r.Row1, h-1-r.Row0)
	switch {
	case slices.Equal(fits, []int{gridTMSCompatible}):
		return nil
	case slices.Equal(fits, []int{gridOneTileAtZero}):
		return &export.SourceError{File: dir, Problem: "was written by gdal2tiles on its default geodetic grid " +
			"(one tile at level 0, 1.40625° per pixel), not the grid of two tiles at level 0", Fix: oneTileFix()}
	case len(fits) == 2:
		return &export.SourceError{File: dir, Problem: "its tiles fit both of gdal2tiles' geodetic grids " +
			"(they lie in the grid's south-west corner), so their grid cannot be told",
			Fix: "convert the source with `gdal_translate -of GPKG -co TILING_SCHEME=InspireCRS84Quad` instead"}
	}
	return &export.SourceError{File: dir, Problem: fmt.Sprintf("its tiles at level %d (columns %d..%d, rows %d..%d from the top) "+
		"do not cover the BoundingBox of %s on a geodetic grid", z, r.Col0, r.Col1, r.Row0, r.Row1, TileMapResource), Fix: fixTMS}
}

// checkViewers refuses an XYZ directory whose gdal2tiles viewer pages say
// it is on another grid: googlemaps.html and leaflet.html come with the
// mercator profile, and openlayers.html lists the resolutions of the
// geodetic grid, starting at 1.40625 for the one-tile-at-level-0 grid.
// With a refusal it returns the grid the pages name (wmsMercator or
// wmsOneTile), else -1.
func checkViewers(dir string, root *sourcefs.Root) (int, error) {
	for _, page := range []string{"googlemaps.html", "leaflet.html"} {
		if _, err := root.Stat(page); err == nil {
			return wmsMercator, &export.SourceError{File: dir, Problem: "holds " + page + ", which gdal2tiles writes for the " +
				"Web Mercator grid (-p mercator), not the EPSG:4326 grid of two tiles at level 0", Fix: fixXYZ}
		}
	}
	b, err := root.ReadFile("openlayers.html", maxTileMapBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return -1, nil
	}
	if fe := (*sourcefs.Error)(nil); errors.As(err, &fe) {
		return -1, confined(dir, fe)
	}
	if bytes.Contains(b, []byte("resolutions: [1.40625,")) {
		return wmsOneTile, &export.SourceError{File: dir, Problem: "was written by gdal2tiles on its default geodetic grid " +
			"(its openlayers.html starts at 1.40625° per pixel: one tile at level 0), not the grid of two tiles at level 0",
			Fix: fixXYZ}
	}
	if bytes.Contains(b, []byte("EPSG:3857")) || bytes.Contains(b, []byte("EPSG:900913")) {
		return wmsMercator, &export.SourceError{File: dir, Problem: "holds an openlayers.html for the Web Mercator grid, " +
			"not the EPSG:4326 grid of two tiles at level 0", Fix: fixXYZ}
	}
	return -1, nil
}

// confined is the SourceError of a file of the tile directory dir that is
// not a regular file inside it, or is too large.
func confined(dir string, e *sourcefs.Error) error {
	fix := ""
	switch {
	case errors.Is(e, sourcefs.ErrOutside):
		fix = "a source is read inside its directory only: copy the file in instead of linking to it"
	case errors.Is(e, sourcefs.ErrNotRegular):
		fix = "tiles and index files must be regular files"
	case errors.Is(e, sourcefs.ErrTooLarge):
		fix = fmt.Sprintf("tiles must be PNG, JPEG or WebP images of 256×256 pixels, at most %d MiB", MaxTileBytes>>20)
	}
	name := filepath.Join(dir, filepath.FromSlash(e.Name))
	return &export.SourceError{File: name, Problem: strings.TrimPrefix(e.Error(), e.Name+" "), Fix: fix, Err: e}
}

// errText is an error's message for a SourceError's problem: without the
// path a *fs.PathError repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
