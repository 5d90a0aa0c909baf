package raster_test

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// sqlExec runs statements on the GeoPackage at path.
func sqlExec(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	require.NoError(t, db.Close())
}

// repage rewrites the GeoPackage at path with 2 KiB pages, not the 4 KiB
// of the exports this package builds by rows: an export with 2 KiB pages
// is a copy of the source's pages.
func repage(t testing.TB, path string) {
	t.Helper()
	sqlExec(t, path, `PRAGMA page_size = 2048`, `VACUUM`)
}

// exportFacts are what TestWholeGeoPackageIsCopiedByPages checks of an
// export GeoPackage.
type exportFacts struct {
	pageSize, appID, userVersion int64
	integrity                    string
	objects                      []string // type:name of sqlite_schema, sorted
	contents                     string   // gpkg_contents' table_name, data_type, identifier
	levels                       string   // gpkg_tile_matrix's levels of the tile table
}

func factsOf(t *testing.T, path string) exportFacts {
	t.Helper()
	db := openGPKG(t, path)
	var f exportFacts
	require.NoError(t, db.QueryRow(`SELECT page_size, application_id, user_version, integrity_check
		FROM pragma_page_size, pragma_application_id, pragma_user_version, pragma_integrity_check`).
		Scan(&f.pageSize, &f.appID, &f.userVersion, &f.integrity))
	rows, err := db.Query(`SELECT type || ':' || name FROM sqlite_schema`)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		f.objects = append(f.objects, s)
	}
	require.NoError(t, rows.Err())
	slices.Sort(f.objects)
	require.NoError(t, db.QueryRow(`SELECT table_name || ',' || data_type || ',' || identifier FROM gpkg_contents`).Scan(&f.contents))
	require.NoError(t, db.QueryRow(`SELECT group_concat(zoom_level) FROM
		(SELECT zoom_level FROM gpkg_tile_matrix WHERE table_name = 'tiles' ORDER BY zoom_level)`).Scan(&f.levels))
	return f
}

// exportObjects are the tables and indexes of an export GeoPackage.
var exportObjects = []string{
	"index:sqlite_autoindex_gpkg_contents_1", "index:sqlite_autoindex_gpkg_contents_2",
	"index:sqlite_autoindex_gpkg_tile_matrix_1", "index:sqlite_autoindex_gpkg_tile_matrix_set_1",
	"index:sqlite_autoindex_tiles_1",
	"table:gpkg_contents", "table:gpkg_spatial_ref_sys", "table:gpkg_tile_matrix", "table:gpkg_tile_matrix_set",
	"table:sqlite_sequence", "table:tiles",
}

// checkWholeExport exports all of rec and checks the GeoPackage: the
// source's tiles, a sound file with the export's tables only, and the
// page size it was built with (the source's, 2 KiB, when its pages were
// copied, 4 KiB when its rows were).
func checkWholeExport(t *testing.T, rec catalog.Record, want map[tileKey][]byte, pageSize int64) {
	t.Helper()
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{}))
	path := artifactPath(t, out, arts, exporttask.ArtifactGPKG)
	assert.Equal(t, want, readTiles(t, path))
	f := factsOf(t, path)
	assert.Equal(t, pageSize, f.pageSize)
	assert.Equal(t, "ok", f.integrity)
	assert.EqualValues(t, raster.ApplicationID, f.appID)
	assert.EqualValues(t, raster.UserVersion, f.userVersion)
	assert.Equal(t, exportObjects, f.objects)
	assert.Equal(t, "tiles,tiles,"+rec.Title, f.contents)
	var levels []string
	for z := rec.MinZoom; z <= rec.MaxZoom; z++ {
		levels = append(levels, strconv.Itoa(z))
	}
	assert.Equal(t, strings.Join(levels, ","), f.levels)
	if _, err := exec.LookPath("gdalinfo"); err == nil || os.Getenv("VIEWER_TEST_REQUIRE_GDAL") == "1" {
		info := gdaltest.Info(t, path)
		assert.Equal(t, "GPKG", info.DriverShortName)
	}
}

// TestWholeGeoPackageIsCopiedByPages: the export of every tile of a
// GeoPackage that holds nothing else is a copy of its pages (its page
// size) with the export's metadata: the same tiles, a sound file, the
// export's tables only (the source's trigger and extension table gone),
// which GDAL opens.
func TestWholeGeoPackageIsCopiedByPages(t *testing.T) {
	rec := fixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	sqlExec(t, path,
		`CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
			definition TEXT NOT NULL, scope TEXT NOT NULL)`,
		`INSERT INTO gpkg_extensions VALUES ('tiles', NULL, 'x_test', 'none', 'read-write')`,
		`CREATE TRIGGER tiles_zoom_insert BEFORE INSERT ON tiles WHEN NEW.zoom_level < 0
			BEGIN SELECT RAISE(ABORT, 'zoom'); END`)
	repage(t, path)
	want := readTiles(t, path)
	checkWholeExport(t, rec, want, 2048)
}

// TestGeoPackageWithOtherDataIsCopiedByRows: a source that holds a table
// of its own besides the tiles, or free pages (which may hold deleted
// rows), is not copied whole: the export has the tiles only.
func TestGeoPackageWithOtherDataIsCopiedByRows(t *testing.T) {
	for name, stmts := range map[string][]string{
		"a table": {`CREATE TABLE notes (note TEXT)`, `INSERT INTO notes VALUES ('private')`},
		"free pages": {`CREATE TABLE notes (note TEXT)`, `INSERT INTO notes SELECT hex(tile_data) FROM tiles`,
			`DROP TABLE notes`},
	} {
		t.Run(name, func(t *testing.T) {
			rec := fixture(t)
			path := filepath.Join(rec.Location, raster.SourceName)
			repage(t, path)
			sqlExec(t, path, stmts...)
			checkWholeExport(t, rec, readTiles(t, path), 4096)
		})
	}
}

// TestGDALGeoPackageIsCopiedByPages: a GeoPackage made by GDAL (table
// "relief") is copied by pages, its tile table renamed tiles.
func TestGDALGeoPackageIsCopiedByPages(t *testing.T) {
	dir := t.TempDir()
	path := makeGPKG(t, dir, "relief", makeImage(t, dir, 1024))
	repage(t, path)
	want := readTable(t, path, "relief")
	rec := inspect(t, catalog.Source{Path: path, Format: "GPKG", Table: "relief"})
	checkWholeExport(t, rec, want, 2048)
}

// TestWholeGeoPackageInWALModeIsCopiedWithItsWAL: a source whose latest
// tiles are still in its -wal file (a writer holds it open, and has not
// written them into the file) is copied page by page with them.
func TestWholeGeoPackageInWALModeIsCopiedWithItsWAL(t *testing.T) {
	rec := fixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	repage(t, path)
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	require.NoError(t, err)
	defer w.Close()
	w.SetMaxOpenConns(1)
	before := readTiles(t, path)
	for _, q := range []string{
		`UPDATE tiles SET tile_data = tile_data || x'00' WHERE id = (SELECT min(id) FROM tiles)`,
		`VACUUM`, // no free pages left, in the -wal file only
	} {
		_, err = w.Exec(q)
		require.NoError(t, err, q)
	}
	st, err := os.Stat(path + "-wal")
	require.NoError(t, err)
	require.Positive(t, st.Size(), "the change is in the -wal file")
	want := readTiles(t, path)
	require.NotEqual(t, before, want)
	checkWholeExport(t, rec, want, 2048)
}

// TestPartOfAGeoPackageInWALModeIsCopiedWithItsWAL: the same source, an
// area of it (copied by rows, from the attached source).
func TestPartOfAGeoPackageInWALModeIsCopiedWithItsWAL(t *testing.T) {
	rec := fixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	require.NoError(t, err)
	defer w.Close()
	w.SetMaxOpenConns(1)
	_, err = w.Exec(`UPDATE tiles SET tile_data = tile_data || x'00'`)
	require.NoError(t, err)
	want := readTiles(t, path)
	roi := square(34.3, 31.2, 34.7, 31.6)
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(roi)}))
	got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	require.NotEmpty(t, got)
	for k, b := range got {
		assert.Equal(t, want[k], b, "tile %v", k)
	}
}
