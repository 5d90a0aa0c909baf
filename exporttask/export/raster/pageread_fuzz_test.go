package raster

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzPageReader reads the tile table of a GeoPackage whose bytes the
// fuzzer has changed (each 5 bytes of input: a big-endian offset into
// the file and the byte written there). Whatever the damage, the reader
// returns an error or rows, never panics, never hands out a tile over
// MaxTileBytes, and ends within as many rows as the file has room for.
func FuzzPageReader(f *testing.F) {
	var tiles []writtenTile
	for i := range 300 {
		// Tiles on the leaf page, spilling onto one overflow page, and
		// onto a chain of them.
		size := []int{0, 90, 3000, 9000}[i%4]
		tiles = append(tiles, writtenTile{zoom: 3, col: int64(i % 8), row: int64(i / 8), data: make([]byte, size)})
	}
	path, _ := writeTable(f, tiles, false)
	base, err := os.ReadFile(path)
	require.NoError(f, err)
	db, err := sql.Open("sqlite", path)
	require.NoError(f, err)
	var root uint32
	require.NoError(f, db.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = 'tiles'`).Scan(&root))
	require.NoError(f, db.Close())

	f.Add([]byte{})
	f.Add(append(binary.BigEndian.AppendUint32(nil, 16), 0)) // the page size's high byte zeroed
	f.Add(append(binary.BigEndian.AppendUint32(nil, uint32((root-1)*4096)), 0x02))
	f.Add(append(binary.BigEndian.AppendUint32(nil, uint32((root-1)*4096+3)), 0xff))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, edits []byte) {
		b := append([]byte(nil), base...)
		for ; len(edits) >= 5; edits = edits[5:] {
			off := binary.BigEndian.Uint32(edits) % uint32(len(b))
			b[off] = edits[4]
		}
		p := filepath.Join(dir, "fuzzed.gpkg")
		require.NoError(t, os.WriteFile(p, b, 0o600))
		file, err := os.Open(p)
		require.NoError(t, err)
		defer file.Close()
		r, err := newPageReader(file, int64(len(b)), root, 1, 2, 3, 4)
		if err != nil {
			return
		}
		c, err := r.seek(1)
		if err != nil {
			return
		}
		// A row takes at least 4 bytes of a page (its pointer and the
		// smallest cell): more rows than that is a loop.
		limit := len(b) / 4
		for n := 0; ; n++ {
			require.Less(t, n, limit, "the reader did not end")
			tl, ok, err := r.next(c, math.MaxInt64)
			if !ok || (err != nil && !errors.Is(err, errUnusual)) {
				return
			}
			require.LessOrEqual(t, len(tl.data), MaxTileBytes)
		}
	})
}
