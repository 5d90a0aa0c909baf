package raster

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// The source formats (catalog.Source.Format) this package reads.
const (
	// FormatGPKG is a GeoPackage file; catalog.Source.Table names its tile
	// table.
	FormatGPKG = "GPKG"
	// FormatTMS is a directory of z/x/y tiles with TMS rows (row 0 at the
	// bottom), as gdal2tiles writes it, with a tilemapresource.xml.
	FormatTMS = "TMS"
	// FormatXYZ is a directory of z/x/y tiles with XYZ rows (row 0 at the
	// top), as gdal2tiles --xyz writes it.
	FormatXYZ = "XYZ"
)

// TileMapResource is the index file of a TMS directory, which a
// registered TMS source (and an XYZ source that has one) is checked by.
const TileMapResource = "tilemapresource.xml"

// tileExtensions are the file extensions of tiles in a directory source.
var tileExtensions = []string{"png", "jpg", "jpeg", "webp"}

// source is a record's open tile pyramid: a GeoPackage tile table, or a
// directory of z/x/y tiles.
type source struct {
	path   string // the GeoPackage file or the tile directory
	format string // FormatGPKG, FormatTMS or FormatXYZ
	table  string // GPKG: the tile table
	db     *sql.DB
	file   os.FileInfo    // GPKG: the file when opened, see unchanged
	root   *sourcefs.Root // TMS and XYZ: the directory, read inside itself only
	ext    string         // TMS and XYZ: the tiles' file extension, without the dot
	// imagery is a GTiff source, whose tiles are rendered: by render,
	// made by the export for its tile format.
	imagery *imagery
	render  *renderer
	// held are descriptors of the GeoPackage file opened besides
	// SQLite's (see copyPlainFile, blobReader), closed after SQLite's
	// connections: closing any descriptor of a file drops the process's
	// POSIX locks on it, SQLite's read locks among them.
	held []*os.File
}

// maxTileMapBytes is the largest tilemapresource.xml (or gdal2tiles viewer
// page) read; gdal2tiles writes a few kilobytes.
const maxTileMapBytes = 1 << 20

// openSource opens and checks rec's source: the registered one (which
// must not have changed since it was registered, see export.SourcePath),
// or for a record without a Source, <record directory>/tiles.gpkg with
// its table "tiles". Any failure is an export.PermanentError:
// retrying cannot fix a record's data.
func openSource(ctx context.Context, rec catalog.Record) (*source, error) {
	if rec.Source == nil {
		return openLegacy(ctx, rec)
	}
	switch f := rec.Source.Format; f {
	case FormatGPKG:
		p, err := export.SourcePath(rec, "")
		if err != nil {
			return nil, err
		}
		s, err := openGPKG(ctx, p, rec.Source.Table)
		if err != nil {
			return nil, unreadable(rec, err)
		}
		return s, nil
	case FormatTMS, FormatXYZ:
		index := TileMapResource
		if f == FormatXYZ {
			dir := rec.Source.Path
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(rec.Location, dir)
			}
			if _, err := os.Stat(filepath.Join(dir, TileMapResource)); err != nil {
				index = "" // the directory itself is the index, see Inspect
			}
		}
		p, err := export.SourcePath(rec, index)
		if err != nil {
			return nil, err
		}
		s, err := openDir(p, f)
		if err != nil {
			return nil, unreadable(rec, err)
		}
		if s.ext, err = dirExtension(s.root); err != nil {
			s.Close()
			return nil, unreadable(rec, err)
		}
		return s, nil
	case FormatGTiff:
		return openImagerySource(rec)
	default:
		return nil, export.Permanent(fmt.Sprintf("the source of catalog record %s has format %q, "+
			"which RASTER exports do not read (GPKG, TMS, XYZ or GTiff)", rec.ID, f),
			fmt.Errorf("raster: record %s: source format %q", rec.ID, f))
	}
}

// openLegacy opens <record directory>/tiles.gpkg, the source of a record
// registered before records named their source, and checks that its
// tile matrix has every level of rec.
func openLegacy(ctx context.Context, rec catalog.Record) (*source, error) {
	path := filepath.Join(rec.Location, SourceName)
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, export.Permanent("the tiles of catalog record "+rec.ID+" are missing", err)
	}
	if err != nil {
		return nil, fmt.Errorf("raster: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, unreadable(rec, fmt.Errorf("%s is not a file", path))
	}
	s, err := openGPKG(ctx, path, TilesTable)
	if err == nil {
		err = requireLevels(ctx, s.db, TilesTable, rec.MinZoom, rec.MaxZoom)
		if err != nil {
			s.Close()
			err = fmt.Errorf("%s: %w", path, err)
		}
	}
	if err != nil {
		return nil, unreadable(rec, err)
	}
	return s, nil
}

// openGPKG opens the GeoPackage path and checks its tile table (the only
// one when table is empty): a stored table, on the grid. The file's
// identity is noted, see unchanged.
func openGPKG(ctx context.Context, path, table string) (*source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	db, err := openRead(path)
	if err != nil {
		return nil, err
	}
	if table == "" {
		if err = requireTable(ctx, db, "gpkg_contents"); err == nil {
			table, err = onlyTileTable(ctx, db)
		}
	}
	if err == nil {
		err = requireTable(ctx, db, "gpkg_tile_matrix")
	}
	if err == nil {
		err = requireTable(ctx, db, table, tileColumns...)
	}
	if err == nil {
		err = checkMatrix(ctx, db, table)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &source{path: path, format: FormatGPKG, table: table, db: db, file: st}, nil
}

// unchanged checks that a GeoPackage source is still the file it was when
// opened: the same file, size and modification time. A file rewritten or
// cut short in place during an export is caught here, even where SQLite
// read the missing pages as zeros without an error.
func (s *source) unchanged() error {
	if s.imagery != nil {
		return s.imagery.unchanged()
	}
	if s.file == nil {
		return nil
	}
	st, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("the source %s: %w", s.path, err)
	}
	if !os.SameFile(st, s.file) || st.Size() != s.file.Size() || !st.ModTime().Equal(s.file.ModTime()) {
		return fmt.Errorf("the source %s changed during the export (%d bytes, modified %s; at the start %d bytes, modified %s)",
			s.path, st.Size(), st.ModTime().UTC().Format(time.RFC3339Nano),
			s.file.Size(), s.file.ModTime().UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// checkMatrix compares the levels gpkg_tile_matrix lists for table with
// the grid: at level z, 2^(z+1) × 2^z tiles of TileSize pixels.
func checkMatrix(ctx context.Context, db *sql.DB, table string) error {
	rows, err := db.QueryContext(ctx, `SELECT zoom_level, matrix_width, matrix_height, tile_width, tile_height,
		pixel_x_size, pixel_y_size FROM gpkg_tile_matrix WHERE table_name = ?`, table)
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var z int
		var w, h, tw, th int64
		var px, py float64
		if err := rows.Scan(&z, &w, &h, &tw, &th, &px, &py); err != nil {
			return err
		}
		n++
		if z < 0 || z > MaxLevel {
			continue
		}
		mw, mh := matrixSize(z)
		if w != mw || h != mh || tw != TileSize || th != TileSize {
			return fmt.Errorf("gpkg_tile_matrix level %d of table %q is %dx%d tiles of %dx%d pixels, want %dx%d of %dx%d",
				z, table, w, h, tw, th, mw, mh, TileSize, TileSize)
		}
		if p := pixelDegrees(z); math.Abs(px-p) > p*1e-6 || math.Abs(py-p) > p*1e-6 {
			return fmt.Errorf("gpkg_tile_matrix level %d of table %q has pixels of %g×%g degrees, want %g",
				z, table, px, py, p)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("gpkg_tile_matrix lists no level of table %q", table)
	}
	return nil
}

// requireLevels checks that gpkg_tile_matrix lists every level from
// minZoom to maxZoom for table.
func requireLevels(ctx context.Context, db *sql.DB, table string, minZoom, maxZoom int) error {
	for z := minZoom; z <= maxZoom; z++ {
		var n int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM gpkg_tile_matrix WHERE table_name = ? AND zoom_level = ?`,
			table, z).Scan(&n)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("gpkg_tile_matrix has no level %d", z)
		}
	}
	return nil
}

// tileTables returns the tile tables gpkg_contents lists, by name.
func tileTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT table_name FROM gpkg_contents WHERE data_type = 'tiles' ORDER BY table_name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// onlyTileTable returns the GeoPackage's tile table when it has one only.
func onlyTileTable(ctx context.Context, db *sql.DB) (string, error) {
	names, err := tileTables(ctx, db)
	if err != nil {
		return "", err
	}
	if len(names) != 1 {
		return "", fmt.Errorf("the GeoPackage has %d tile tables (%s) and the record names none", len(names),
			strings.Join(names, ", "))
	}
	return names[0], nil
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// tileEntry is a tile of a level: its column and row on the grid (row 0
// at the top), its encoded size (in a directory; a GeoPackage's are summed
// by source.sizeLevel) and, in a GeoPackage, its row id.
type tileEntry struct {
	col, row, size, id int64
}

// list returns the tiles of level z within r that the source holds, in
// the order of rows then columns: from the tile table's index of a
// GeoPackage, with their row ids; from the file system (names and
// os.Stat, no tile is read) for a directory, with their sizes.
func (s *source) list(ctx context.Context, z int, r tileRange) ([]tileEntry, error) {
	if r.Count() == 0 {
		return nil, nil
	}
	if s.imagery != nil {
		return s.listImagery(z, r)
	}
	if s.db == nil {
		return s.listDir(z, r)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT tile_column, tile_row, 0, rowid FROM `+quoteIdent(s.table)+`
		WHERE zoom_level = ? AND tile_row BETWEEN ? AND ? AND tile_column BETWEEN ? AND ?
		ORDER BY tile_row, tile_column`, z, r.Row0, r.Row1, r.Col0, r.Col1)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tileEntry
	for rows.Next() {
		var e tileEntry
		if err := rows.Scan(&e.col, &e.row, &e.size, &e.id); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// read returns the encoded tile (col, row) of level z.
func (s *source) read(ctx context.Context, z int, col, row int64) ([]byte, error) {
	if s.imagery != nil {
		return s.renderOne(z, col, row)
	}
	if s.db == nil {
		return s.root.ReadFile(s.tileName(z, col, row), MaxTileBytes)
	}
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT tile_data FROM `+quoteIdent(s.table)+`
		WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?`, z, col, row).Scan(&b)
	if err != nil {
		return nil, fmt.Errorf("tile %d/%d/%d: %w", z, col, row, err)
	}
	return b, nil
}

// flipRow converts a grid row (0 at the top) of level z to the row of the
// directory's file names, and back.
func (s *source) flipRow(z int, row int64) int64 {
	if s.format == FormatTMS {
		_, h := matrixSize(z)
		return h - 1 - row
	}
	return row
}

// tileName is the file of tile (col, row) of level z in a directory: a
// slash path inside it.
func (s *source) tileName(z int, col, row int64) string {
	return path.Join(strconv.Itoa(z), strconv.FormatInt(col, 10), strconv.FormatInt(s.flipRow(z, row), 10)+"."+s.ext)
}

// openDir opens the tile directory dir of format f (TMS or XYZ), without
// reading it yet.
func openDir(dir, f string) (*source, error) {
	root, err := sourcefs.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &source{path: dir, format: f, root: root}, nil
}

// listDir lists the tiles of level z within r in a directory.
func (s *source) listDir(z int, r tileRange) ([]tileEntry, error) {
	var out []tileEntry
	err := s.walkLevel(z, func(col, fileRow int64, _ string, size int64) error {
		row := s.flipRow(z, fileRow)
		if col < r.Col0 || col > r.Col1 || row < r.Row0 || row > r.Row1 {
			return nil
		}
		out = append(out, tileEntry{col: col, row: row, size: size})
		return nil
	}, func(col int64) bool { return col >= r.Col0 && col <= r.Col1 })
	sort.Slice(out, func(i, j int) bool {
		if out[i].row != out[j].row {
			return out[i].row < out[j].row
		}
		return out[i].col < out[j].col
	})
	return out, err
}

// walkLevel calls fn for each tile file of level z (named
// z/column/row.ext) in the columns wantCol accepts, in no particular
// order, with its slash path inside the directory and its size. A missing
// level directory has no tiles. A tile that is not a regular file inside
// the directory (a link leading out of it, a FIFO, a device) or is larger
// than MaxTileBytes is an error: a *sourcefs.Error naming it.
func (s *source) walkLevel(z int, fn func(col, fileRow int64, name string, size int64) error, wantCol func(int64) bool) error {
	levelDir := strconv.Itoa(z)
	cols, err := s.root.ReadDir(levelDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	suffix := "." + s.ext
	for _, c := range cols {
		col, ok := number64(c.Name())
		if !ok || !wantCol(col) {
			continue
		}
		colDir := path.Join(levelDir, c.Name())
		if dir, err := isDir(s.root, colDir, c); err != nil || !dir {
			if err != nil {
				return err
			}
			continue
		}
		files, err := s.root.ReadDir(colDir)
		if err != nil {
			return err
		}
		for _, f := range files {
			stem, found := strings.CutSuffix(f.Name(), suffix)
			if !found {
				continue
			}
			fileRow, ok := number64(stem)
			if !ok {
				continue
			}
			name := path.Join(colDir, f.Name())
			size, err := tileSize(s.root, name, f)
			if err != nil {
				return err
			}
			if err := fn(col, fileRow, name, size); err != nil {
				return err
			}
		}
	}
	return nil
}

// tileSize returns the size of the tile file name (entry e of its
// directory), checking that it is a regular file inside the root (a link
// to one is followed inside the root only) of at most MaxTileBytes.
func tileSize(root *sourcefs.Root, name string, e fs.DirEntry) (int64, error) {
	var st fs.FileInfo
	var err error
	if e.Type().IsRegular() {
		st, err = e.Info()
	} else {
		st, err = root.StatFile(name)
	}
	if err != nil {
		return 0, err
	}
	if st.Size() > MaxTileBytes {
		return 0, &sourcefs.Error{Name: name, Err: sourcefs.ErrTooLarge,
			Detail: fmt.Sprintf("%d bytes, the limit is %d", st.Size(), MaxTileBytes)}
	}
	return st.Size(), nil
}

// isDir reports whether the entry e, named name inside root, is a
// directory, or a symbolic link to one inside root; a link leading out of
// root is an error.
func isDir(root *sourcefs.Root, name string, e fs.DirEntry) (bool, error) {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir(), nil
	}
	st, err := root.Stat(name)
	if errors.Is(err, sourcefs.ErrOutside) {
		return false, err
	}
	return err == nil && st.IsDir(), nil
}

// number64 parses a file name made of decimal digits only.
func number64(name string) (int64, bool) {
	if name == "" || len(name) > 18 || strings.TrimLeft(name, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(name, 10, 64)
	return n, err == nil
}

// dirLevels returns the levels of a tile directory: its subdirectories
// named by a number, in increasing order.
func dirLevels(root *sourcefs.Root) ([]int, error) {
	entries, err := root.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var levels []int
	for _, e := range entries {
		n, ok := number64(e.Name())
		if !ok || n > 1<<20 {
			continue
		}
		dir, err := isDir(root, e.Name(), e)
		if err != nil {
			return nil, err
		}
		if dir {
			levels = append(levels, int(n))
		}
	}
	sort.Ints(levels)
	return levels, nil
}

// dirExtension returns the file extension of the tiles of a directory:
// the one tilemapresource.xml names when there is one, else that of the
// first tile file found (png, jpg, jpeg or webp).
func dirExtension(root *sourcefs.Root) (string, error) {
	if tm, err := readTileMap(root); err == nil {
		return tm.TileFormat.Extension, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	levels, err := dirLevels(root)
	if err != nil {
		return "", err
	}
	for _, z := range levels {
		levelDir := strconv.Itoa(z)
		cols, err := root.ReadDir(levelDir)
		if err != nil {
			return "", err
		}
		for _, c := range cols {
			if _, ok := number64(c.Name()); !ok {
				continue
			}
			colDir := path.Join(levelDir, c.Name())
			if dir, err := isDir(root, colDir, c); err != nil || !dir {
				if err != nil {
					return "", err
				}
				continue
			}
			files, err := root.ReadDir(colDir)
			if err != nil {
				return "", err
			}
			for _, f := range files {
				stem, ext, _ := strings.Cut(f.Name(), ".")
				if _, ok := number64(stem); ok && isTileExtension(ext) {
					return ext, nil
				}
			}
		}
	}
	return "", errors.New("no tile file (z/x/y.png, .jpg, .jpeg or .webp) found")
}

func isTileExtension(ext string) bool {
	for _, e := range tileExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// Close releases the source.
func (s *source) Close() error {
	if s.imagery != nil {
		return s.imagery.Close()
	}
	if s.root != nil {
		return s.root.Close()
	}
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	for _, f := range s.held {
		f.Close()
	}
	return err
}
