package raster

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// GeoPackage facts (OGC 12-128).
const (
	// ApplicationID is PRAGMA application_id of a GeoPackage: "GPKG".
	ApplicationID = 0x47504B47
	// UserVersion is PRAGMA user_version of a GeoPackage 1.2.
	UserVersion = 10200
	// TilesTable is the name of the tile table of exports, and of the
	// source of a record without a registered Source.
	TilesTable = "tiles"
	// SourceName is the file name of the tiles of a RASTER record without
	// a registered Source, in the record's directory.
	SourceName = "tiles.gpkg"
)

// wkt4326 is the definition of EPSG:4326 in OGC WKT 1.
const wkt4326 = `GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,` +
	`AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],` +
	`UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],` +
	`AUTHORITY["EPSG","4326"]]`

// schema creates the GeoPackage tables; the application id and version are
// set by pragmas when the file is opened.
const schema = metadataSchema + tilesSchema

// metadataSchema creates the GeoPackage's metadata tables (all but the
// tile table).
const metadataSchema = `
CREATE TABLE gpkg_spatial_ref_sys (
  srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (
  table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_tile_matrix_set (
  table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL,
  min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL,
  CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
  CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
CREATE TABLE gpkg_tile_matrix (
  table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, matrix_width INTEGER NOT NULL,
  matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height INTEGER NOT NULL,
  pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL,
  CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level),
  CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name));
`

// tilesSchema creates the export's tile table.
const tilesSchema = `
CREATE TABLE tiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
  tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL, UNIQUE (zoom_level, tile_column, tile_row));
`

// The settings of a GeoPackage being built (see openWrite).
const (
	// writePageSize is SQLite's default page, and GDAL's. Larger pages
	// would hold most tiles in one page, but modernc.org/sqlite's allocator
	// maps and unmaps every allocation over 16 KiB, and the page cache
	// allocates each page apart: its INSERT … SELECT of 205,166 tiles into
	// 64 KiB pages took 5m23s where the sqlite3 shell took 22s (bench/README.md).
	writePageSize = 4096
	// writeCacheKiB is the page cache of the file being built: enough for
	// the tile table's index (about 20 bytes a tile: 64 MiB holds millions
	// of tiles), which grows out of order as rows are copied row by row.
	writeCacheKiB = 64 << 10
)

// openWrite opens (creating) the GeoPackage file path for writing on one
// connection, with the settings of a file being built: the file is scratch
// until streamed or renamed, so it has no journal and no fsync, and only
// this connection opens it (an exclusive lock taken once). A new file gets
// writePageSize pages; the application id and version are set.
//
// The page size, application id and version are set by statements, in
// that order, not as _pragma parameters: modernc.org/sqlite runs those
// sorted by name, and application_id, first, writes the file's header
// with the default page size, after which page_size is ignored.
func openWrite(ctx context.Context, path string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("cache_size(%d)", -writeCacheKiB))
	q.Add("_pragma", "locking_mode(EXCLUSIVE)")
	q.Add("_pragma", "trusted_schema(OFF)")
	q.Add("_pragma", "journal_mode(OFF)")
	q.Add("_pragma", "synchronous(OFF)")
	db, err := sql.Open("sqlite", fileURI(path, q.Encode()))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	for _, p := range []string{fmt.Sprintf("page_size = %d", writePageSize), // before anything is written
		fmt.Sprintf("application_id = %d", ApplicationID), fmt.Sprintf("user_version = %d", UserVersion)} {
		if _, err := db.ExecContext(ctx, "PRAGMA "+p); err != nil {
			db.Close()
			return nil, fmt.Errorf("opening %s: %w", path, err)
		}
	}
	return db, nil
}

// fileURI returns the SQLite URI of the file path with the query: the
// characters a URI gives a meaning (%, ?, #) are escaped in the path, so
// that a directory named "maps #2" is not cut short.
func fileURI(path, query string) string {
	var b strings.Builder
	b.WriteString("file:")
	for _, c := range []byte(path) {
		switch c {
		case '%', '?', '#':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("?")
	b.WriteString(query)
	return b.String()
}

// openRead opens the GeoPackage file path read-only.
func openRead(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", fileURI(path, "mode=ro&_pragma=query_only(1)&_pragma=trusted_schema(OFF)"))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}

// tileSet describes the tile table of a GeoPackage being written.
type tileSet struct {
	Identifier  string    // gpkg_contents.identifier
	Description string    // gpkg_contents.description
	Extent      geom.BBox // gpkg_contents min/max: the data's extent
	MinZoom     int
	MaxZoom     int
}

// createGeoPackage writes the GeoPackage tables of ts into db, which is
// empty: reference systems, contents, the tile matrix set and one tile
// matrix per level.
func createGeoPackage(ctx context.Context, db *sql.DB, ts tileSet) error {
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating the GeoPackage tables: %w", err)
	}
	return writeMetadata(ctx, db, ts)
}

// sqlExecer is a *sql.DB, *sql.Conn or *sql.Tx.
type sqlExecer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// writeMetadata fills the empty metadata tables of db (see metadataSchema)
// for ts: reference systems, contents, the tile matrix set and one tile
// matrix per level.
func writeMetadata(ctx context.Context, db sqlExecer, ts tileSet) error {
	stmts := []struct {
		q    string
		args []any
	}{
		{`INSERT INTO gpkg_spatial_ref_sys VALUES
		  ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
		  ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
		  ('WGS 84 geodetic', 4326, 'EPSG', 4326, ?, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid')`,
			[]any{wkt4326}},
		{`INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id)
		  VALUES (?, 'tiles', ?, ?, ?, ?, ?, ?, 4326)`,
			[]any{TilesTable, ts.Identifier, ts.Description, ts.Extent.West, ts.Extent.South, ts.Extent.East, ts.Extent.North}},
		{`INSERT INTO gpkg_tile_matrix_set VALUES (?, 4326, ?, ?, ?, ?)`,
			[]any{TilesTable, gridBox.West, gridBox.South, gridBox.East, gridBox.North}},
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s.q, s.args...); err != nil {
			return fmt.Errorf("writing the GeoPackage metadata: %w", err)
		}
	}
	for z := ts.MinZoom; z <= ts.MaxZoom; z++ {
		w, h := matrixSize(z)
		if _, err := db.ExecContext(ctx, `INSERT INTO gpkg_tile_matrix VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			TilesTable, z, w, h, TileSize, TileSize, pixelDegrees(z), pixelDegrees(z)); err != nil {
			return fmt.Errorf("writing the tile matrix of level %d: %w", z, err)
		}
	}
	return nil
}
