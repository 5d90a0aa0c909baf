package raster_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// noisyTile is a PNG of noise: about 65 kB that does not compress, so
// that a source of a few hundred tiles spans many megabytes.
func noisyTile(t testing.TB) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, raster.TileSize, raster.TileSize))
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(rnd.UintN(256))
	}
	img.SetGray(0, 0, color.Gray{Y: 1})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// bigFixture writes a source of about 200 tiles of noise (about 14 MB)
// at levels 6..10.
func bigFixture(t testing.TB) catalog.Record {
	t.Helper()
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Title: "noise",
		Footprint: square(34, 31, 36, 33), MinZoom: 6, MaxZoom: 10, Location: t.TempDir()}
	tile := noisyTile(t)
	_, err := raster.WriteSource(rec.Location, rec, func(int, int64, int64) ([]byte, error) { return tile, nil })
	require.NoError(t, err)
	return rec
}

// hookOutput is a testout.Dir that calls first at the first progress
// report.
type hookOutput struct {
	*testout.Dir
	once  sync.Once
	first func()
}

func (o *hookOutput) Progress(done, total int64) error {
	o.once.Do(o.first)
	return o.Dir.Progress(done, total)
}

// truncateChild names the case the test binary runs as a child process
// of TestExportOfASourceChangedMidwayFails.
const truncateChild = "RASTER_TEST_CHANGED_SOURCE_CASE"

// TestExportOfASourceChangedMidwayFails cuts the source GeoPackage short,
// or rewrites half of it in place, once the copy has started: the export
// fails with a permanent reason saying so, and the process lives. Each case
// runs in a child process, since a source read through a memory map takes
// the process down with SIGBUS.
func TestExportOfASourceChangedMidwayFails(t *testing.T) {
	if c := os.Getenv(truncateChild); c != "" {
		exportChangedSource(t, c)
		return
	}
	for _, c := range []string{"truncated", "rewritten", "truncated whole", "rewritten whole"} {
		t.Run(c, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestExportOfASourceChangedMidwayFails$", "-test.v")
			cmd.Env = append(os.Environ(), truncateChild+"="+c)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "the child process failed or died:\n%s", out)
			assert.Contains(t, string(out), "--- PASS: TestExportOfASourceChangedMidwayFails")
		})
	}
}

func exportChangedSource(t *testing.T, c string) {
	rec := bigFixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	change, whole := strings.CutSuffix(c, " whole")
	// An area inside the footprint, so that the tiles are copied a block
	// at a time, with progress reports between blocks; or all of it, with
	// 2 KiB pages, so that its pages are copied (see
	// TestWholeGeoPackageIsCopiedByPages) a step at a time.
	area := exporttask.CreateRequest{ROI: roiOf(square(34.2, 31.2, 35.8, 32.8))}
	if whole {
		area = exporttask.CreateRequest{}
		repage(t, path)
	}
	st, err := os.Stat(path)
	require.NoError(t, err)
	out := &hookOutput{Dir: testout.New(t.TempDir()), first: func() {
		switch change {
		case "truncated":
			require.NoError(t, os.Truncate(path, st.Size()/2))
		case "rewritten":
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteAt(make([]byte, st.Size()/2), st.Size()/2)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err = raster.New(raster.Options{TempDir: t.TempDir()}).Export(ctx, job(t, rec, area), out)
	require.Error(t, err)
	var pe *export.PermanentError
	require.True(t, errors.As(err, &pe), "a permanent failure, not %v", err)
	assert.Contains(t, pe.Reason, "the source of catalog record "+recordID+" changed during the export")
	assert.NotContains(t, pe.Reason, rec.Location, "no server path")
	assert.NotContains(t, pe.Reason, "*", "no Go type")
	assert.Empty(t, dirEntries(t, out.Path), "nothing left in the output")
	assert.NotEmpty(t, out.Reports(), "the change came midway")
}

// hostileTable replaces the tile table of the GeoPackage at path with the
// form named: a recursive view without end, or a table whose tile_data is
// computed on each read.
func hostileTable(t *testing.T, path, form string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	defer db.Close()
	stmts := []string{`ALTER TABLE tiles RENAME TO stored_tiles`}
	switch form {
	case "view":
		stmts = append(stmts, `CREATE VIEW tiles AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n)
			SELECT i AS id, z AS zoom_level, 0 AS tile_column, 0 AS tile_row, x'00' AS tile_data
			FROM n, (SELECT DISTINCT zoom_level AS z FROM stored_tiles)`)
	case "generated":
		stmts = append(stmts, `CREATE TABLE tiles (id INTEGER PRIMARY KEY, zoom_level INTEGER, tile_column INTEGER,
			tile_row INTEGER, tile_data BLOB GENERATED ALWAYS AS (zeroblob(1000000)) VIRTUAL)`,
			`INSERT INTO tiles (id, zoom_level, tile_column, tile_row)
			SELECT id, zoom_level, tile_column, tile_row FROM stored_tiles`)
	}
	for _, s := range stmts {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
}

// TestHostileTileTablesAreRefused: a tile table that is a view (one that
// never ends, here) or that computes its tiles on each read is refused
// by Inspect (catalog add) and by an export, at once, with a reason that
// says why.
func TestHostileTileTablesAreRefused(t *testing.T) {
	for form, want := range map[string]string{
		"view":      `"tiles" is a view, not a table`,
		"generated": `column tile_data of table "tiles" is computed on each read`,
	} {
		t.Run(form, func(t *testing.T) {
			rec := fixture(t)
			path := filepath.Join(rec.Location, raster.SourceName)
			hostileTable(t, path, form)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			_, err := raster.Inspect(ctx, catalog.Source{Path: path, Format: raster.FormatGPKG})
			var se *export.SourceError
			require.True(t, errors.As(err, &se), "a source error, not %v", err)
			assert.Contains(t, se.Problem, want)
			require.NoError(t, ctx.Err(), "refused before the deadline")

			_, err = raster.New(raster.Options{TempDir: t.TempDir()}).Export(ctx, job(t, rec, exporttask.CreateRequest{}),
				testout.New(t.TempDir()))
			var pe *export.PermanentError
			require.True(t, errors.As(err, &pe), "a permanent failure, not %v", err)
			assert.Contains(t, pe.Reason, want)
			assert.False(t, strings.Contains(pe.Reason, rec.Location), "no server path in %q", pe.Reason)
			require.NoError(t, ctx.Err(), "refused before the deadline")
		})
	}
}

// TestExportRefusesAHugeTile: a tile larger than raster.MaxTileBytes fails
// the export at once, before any tile is copied or decoded.
func TestExportRefusesAHugeTile(t *testing.T) {
	rec := fixture(t)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(rec.Location, raster.SourceName))
	require.NoError(t, err)
	var id int64
	var tile []byte
	require.NoError(t, db.QueryRow(`SELECT id, tile_data FROM tiles ORDER BY id DESC LIMIT 1`).Scan(&id, &tile))
	_, err = db.Exec(`UPDATE tiles SET tile_data = ? WHERE id = ?`, append(tile, make([]byte, raster.MaxTileBytes)...), id)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	out := testout.New(t.TempDir())
	_, err = raster.New(raster.Options{TempDir: t.TempDir()}).Export(context.Background(),
		job(t, rec, exporttask.CreateRequest{}), out)
	var pe *export.PermanentError
	require.True(t, errors.As(err, &pe), "a permanent failure, not %v", err)
	assert.Contains(t, pe.Reason, "more than the 4194304 a tile of 256×256 pixels may (MaxTileBytes)")
	assert.Empty(t, out.Reports(), "refused before the copy")
}

// TestExportOfTilesWithExtremeRowIDs: row ids at the ends of the int64
// range (a GeoPackage may hold any) are copied like others.
func TestExportOfTilesWithExtremeRowIDs(t *testing.T) {
	rec := fixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	var n int64
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM tiles`).Scan(&n))
	_, err = db.Exec(`UPDATE tiles SET id = CASE WHEN id % 2 = 0 THEN 9223372036854775807 - id ELSE -9223372036854775807 + id END`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{}))
	got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	assert.Len(t, got, int(n))
	assert.Equal(t, readTiles(t, path), got)
}

// TestExportOfATileTableWithOtherColumns: a tile table whose columns come
// in another order exports the same tiles as any other.
func TestExportOfATileTableWithOtherColumns(t *testing.T) {
	rec := fixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	want := readTiles(t, path)
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	for _, s := range []string{
		`ALTER TABLE tiles RENAME TO old_tiles`,
		`CREATE TABLE tiles (id INTEGER PRIMARY KEY, tile_row INTEGER NOT NULL, tile_column INTEGER NOT NULL,
			zoom_level INTEGER NOT NULL, tile_data BLOB NOT NULL)`,
		`INSERT INTO tiles (id, tile_row, tile_column, zoom_level, tile_data)
			SELECT id, tile_row, tile_column, zoom_level, tile_data FROM old_tiles`,
		`DROP TABLE old_tiles`,
	} {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	require.NoError(t, db.Close())

	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{}))
	assert.Equal(t, want, readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG)))
}
