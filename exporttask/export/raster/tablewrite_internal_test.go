package raster

import (
	"bytes"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// writtenTile is a row a tableWriter test writes.
type writtenTile struct {
	zoom     int
	col, row int64
	data     []byte
}

// writeTable builds an export GeoPackage at a new path whose tile table
// tableWriter writes with tiles, finished as copyPart finishes it (the
// index written by writeIndex, or with reindex by SQLite), and returns it
// and how many levels of interior pages the table has.
func writeTable(t testing.TB, tiles []writtenTile, reindex bool) (string, int) {
	t.Helper()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "out.gpkg")
	db, err := openWrite(ctx, path)
	require.NoError(t, err)
	require.NoError(t, createGeoPackage(ctx, db, tileSet{Identifier: "t", Extent: geom.BBox{West: -180, South: -90, East: 180, North: 90}, MaxZoom: 20}))
	w, indexRoot := newTestWriter(t, db)
	keys := []indexKey{}
	for i, tl := range tiles {
		id, err := w.add(tl.zoom, tl.col, tl.row, tl.data)
		require.NoError(t, err)
		require.EqualValues(t, i+1, id)
		keys = append(keys, indexKey{int64(tl.zoom), tl.col, tl.row, id})
	}
	if reindex {
		keys = nil
	}
	require.NoError(t, w.finish(keys, indexRoot))
	require.NoError(t, indexTiles(ctx, path, int64(len(tiles)), reindex))
	return path, len(w.levels)
}

// newTestWriter closes db, of the GeoPackage being built, and returns a
// tableWriter of its tile table and the root page of the table's index.
func newTestWriter(t testing.TB, db *sql.DB) (*tableWriter, uint32) {
	t.Helper()
	var path string
	var pageSize int
	var pageCount, root, indexRoot uint32
	require.NoError(t, db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path))
	require.NoError(t, db.QueryRow(`SELECT (SELECT page_size FROM pragma_page_size), (SELECT page_count FROM pragma_page_count),
		(SELECT rootpage FROM sqlite_schema WHERE name = 'tiles'),
		(SELECT rootpage FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tiles')`).Scan(&pageSize, &pageCount, &root, &indexRoot))
	require.NoError(t, db.Close())
	w, err := newTableWriter(path, pageSize, pageCount, root)
	require.NoError(t, err)
	return w, indexRoot
}

// checkTable checks the file at path: sound, and holding tiles (row ids
// 1, 2, … in order), found through the table and through its index.
func checkTable(t *testing.T, path string, tiles []writtenTile) {
	t.Helper()
	db, err := openRead(path)
	require.NoError(t, err)
	defer db.Close()
	var integrity string
	require.NoError(t, db.QueryRow(`PRAGMA integrity_check`).Scan(&integrity))
	require.Equal(t, "ok", integrity)
	var n int64
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM tiles`).Scan(&n))
	require.EqualValues(t, len(tiles), n)
	var seq int64
	err = db.QueryRow(`SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'tiles'), 0)`).Scan(&seq)
	require.NoError(t, err)
	assert.EqualValues(t, len(tiles), seq)

	rows, err := db.Query(`SELECT id, zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY id`)
	require.NoError(t, err)
	defer rows.Close()
	i := 0
	for rows.Next() {
		var id, col, row int64
		var z int
		var data []byte
		require.NoError(t, rows.Scan(&id, &z, &col, &row, &data))
		want := tiles[i]
		require.EqualValues(t, i+1, id)
		require.Equal(t, [3]int64{int64(want.zoom), want.col, want.row}, [3]int64{int64(z), col, row}, "row %d", id)
		require.True(t, bytes.Equal(want.data, data), "row %d: %d bytes, want %d", id, len(data), len(want.data))
		i++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, len(tiles), i)

	// Through the index (a lookup by level, column and row).
	stmt, err := db.Prepare(`SELECT length(tile_data) FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?`)
	require.NoError(t, err)
	defer stmt.Close()
	for i := 0; i < len(tiles); i += max(len(tiles)/500, 1) {
		var size int
		require.NoError(t, stmt.QueryRow(tiles[i].zoom, tiles[i].col, tiles[i].row).Scan(&size), "tile %d", i)
		require.Equal(t, len(tiles[i].data), size)
	}
}

// tileSizes are tile sizes about the edges of SQLite's storage of a row
// in 4 KiB pages: all in the leaf page, the largest that is (4,061 bytes
// of payload), the first spilling to overflow pages, a page exactly, an
// overflow page's content (4,092) and multiples, and larger than 64 KiB.
var tileSizes = []int{0, 1, 2, 100, 4000, 4048, 4049, 4050, 4051, 4052, 4053, 4054, 4055, 4056, 4061, 4062,
	4092, 4093, 4096, 4097, 4581, 4582, 4583, 8184, 8185, 8673, 8674, 12276, 65535, 65536, 65537, 70000,
	300_000, 1<<20 + 3, MaxTileBytes}

func randomBytes(rnd *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rnd.UintN(256))
	}
	return b
}

// TestTableWriterWritesWhatSQLiteReads: rows of every size about the
// storage edges, in one leaf, in several, and in a tree of three levels,
// read back by SQLite as written, the file sound (integrity_check).
func TestTableWriterWritesWhatSQLiteReads(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var sized []writtenTile
	for i, n := range tileSizes {
		sized = append(sized, writtenTile{zoom: 12, col: int64(i), row: 7, data: randomBytes(rnd, n)})
	}
	// Many small rows: 3 levels of pages; the integers in every size.
	var many []writtenTile
	for i := range 150_000 {
		many = append(many, writtenTile{zoom: i % 31, col: int64(i) << (i % 40), row: -int64(i) * 3,
			data: randomBytes(rnd, i%23)})
	}
	for _, c := range []struct {
		name     string
		tiles    []writtenTile
		interior int // levels of interior pages
	}{
		{"none", nil, 0},
		{"one", []writtenTile{{zoom: 0, col: 1, row: 0, data: []byte{1, 2, 3}}}, 0},
		{"sizes", sized, 1},
		{"leaves", many[:2000], 1},
		{"many", many, 2},
	} {
		for _, reindex := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/reindex=%v", c.name, reindex), func(t *testing.T) {
				path, interior := writeTable(t, c.tiles, reindex)
				assert.Equal(t, c.interior, interior)
				checkTable(t, path, c.tiles)
			})
		}
	}
}

// TestTableWriterTilesAreUnique: a tile twice fails the index, written
// here or by SQLite (its UNIQUE constraint), as an INSERT would.
func TestTableWriterTilesAreUnique(t *testing.T) {
	for _, reindex := range []bool{false, true} {
		t.Run(fmt.Sprintf("reindex=%v", reindex), func(t *testing.T) {
			ctx := t.Context()
			path := filepath.Join(t.TempDir(), "out.gpkg")
			db, err := openWrite(ctx, path)
			require.NoError(t, err)
			require.NoError(t, createGeoPackage(ctx, db, tileSet{Identifier: "t", MaxZoom: 3}))
			w, indexRoot := newTestWriter(t, db)
			var keys []indexKey
			for range 2 {
				id, err := w.add(3, 1, 2, []byte("x"))
				require.NoError(t, err)
				keys = append(keys, indexKey{3, 1, 2, id})
			}
			if reindex {
				require.NoError(t, w.finish(nil, indexRoot))
				err = indexTiles(ctx, path, 2, true)
				require.Error(t, err)
				assert.Contains(t, err.Error(), "UNIQUE constraint failed")
				return
			}
			err = w.finish(keys, indexRoot)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "the source holds tile 3/1/2 twice (row ids 1 and 2)")
		})
	}
}
