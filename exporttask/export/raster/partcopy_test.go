package raster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// partSizes are tile sizes about the edges of SQLite's storage of a row
// in 4 KiB pages (in the leaf page, the first spilling to overflow pages,
// a page exactly, multiples of an overflow page's 4,092 bytes, over
// 64 KiB), and empty.
var partSizes = []int{0, 1, 100, 4000, 4050, 4055, 4061, 4062, 4092, 4093, 4096, 4097, 4582, 8184, 8185,
	65536, 65537, 70000, 300_000, 1<<20 + 3}

// sizedFixture writes a source whose tiles have the sizes of partSizes,
// dealt out by position (every size in each 5×5 tiles of a level), of
// random bytes; at level 9, which the
// thumbnails of the test's area draw, a grey PNG padded to the size.
func sizedFixture(t *testing.T) catalog.Record {
	t.Helper()
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster, Title: "sizes",
		Footprint: square(34, 31, 35, 32), MinZoom: 5, MaxZoom: 10, Location: t.TempDir()}
	img := image.NewGray(image.Rect(0, 0, raster.TileSize, raster.TileSize))
	for i := range img.Pix {
		img.Pix[i] = 128
	}
	img.SetGray(0, 0, color.Gray{Y: 1})
	var grey bytes.Buffer
	require.NoError(t, png.Encode(&grey, img))
	_, err := raster.WriteSource(rec.Location, rec, func(z int, col, row int64) ([]byte, error) {
		h := fnv.New64a()
		h.Write([]byte{byte(z), byte(col), byte(col >> 8), byte(row), byte(row >> 8)})
		seed := h.Sum64()
		rnd := rand.New(rand.NewPCG(seed, seed>>7))
		n := partSizes[(col*5+row)%int64(len(partSizes))] // every size in 5×5 tiles

		b := make([]byte, 0, max(n, grey.Len()))
		if z == 9 {
			b = append(b, grey.Bytes()...)
		}
		for len(b) < n {
			b = append(b, byte(rnd.UintN(256)))
		}
		return b, nil
	})
	require.NoError(t, err)
	return rec
}

// TestPartOfAGeoPackageIsCopiedByteForByte: an export of part of a
// GeoPackage (its tiles read by blob I/O and written into the export's
// pages) holds exactly the source's bytes for each tile it selects,
// whatever the tile's size, in a sound file that GeoPackage readers
// find complete.
func TestPartOfAGeoPackageIsCopiedByteForByte(t *testing.T) {
	rec := sizedFixture(t)
	src := readTiles(t, filepath.Join(rec.Location, raster.SourceName))
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.1, 34.9, 31.9))}))
	path := artifactPath(t, out, arts, exporttask.ArtifactGPKG)
	got := readTiles(t, path)
	require.NotEmpty(t, got)
	require.Less(t, len(got), len(src), "part of the record")
	sizes := map[int]bool{}
	for k, b := range got {
		want, ok := src[k]
		require.True(t, ok, "tile %v is not in the source", k)
		require.True(t, bytes.Equal(want, b), "tile %v: %d bytes, the source's %d", k, len(b), len(want))
		sizes[len(b)] = true
	}
	for _, n := range []int{0, 1, 4061, 4062, 4096, 8184, 70000, 1<<20 + 3} {
		assert.True(t, sizes[n], "no tile of %d bytes exported", n)
	}
	f := factsOf(t, path)
	assert.Equal(t, "ok", f.integrity)
	assert.Equal(t, exportObjects, f.objects)
	assert.EqualValues(t, raster.ApplicationID, f.appID)
	db := openGPKG(t, path)
	var seq, maxID int64
	require.NoError(t, db.QueryRow(`SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'tiles'), (SELECT max(id) FROM tiles)`).
		Scan(&seq, &maxID))
	assert.EqualValues(t, len(got), seq)
	assert.EqualValues(t, len(got), maxID)
}

// TestPartOfAGeoPackageWithUnusualRowsIsCopied: rows whose records the
// page reader leaves to SQLite (here, a tile table of 24 columns, the
// tile after 20 others) are copied all the same.
func TestPartOfAGeoPackageWithUnusualRowsIsCopied(t *testing.T) {
	rec := sizedFixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	want := readTiles(t, path)
	extra, values := "", ""
	for i := range 20 {
		extra += fmt.Sprintf(", c%d INTEGER", i)
		values += fmt.Sprintf(", %d", i)
	}
	sqlExec(t, path,
		`ALTER TABLE tiles RENAME TO old_tiles`,
		`CREATE TABLE tiles (id INTEGER PRIMARY KEY, zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
			tile_row INTEGER NOT NULL`+extra+`, tile_data BLOB NOT NULL, UNIQUE (zoom_level, tile_column, tile_row))`,
		`INSERT INTO tiles SELECT id, zoom_level, tile_column, tile_row`+values+`, tile_data FROM old_tiles`,
		`DROP TABLE old_tiles`)
	out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.1, 34.9, 31.9))}))
	got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
	require.NotEmpty(t, got)
	require.Less(t, len(got), len(want))
	for k, b := range got {
		require.True(t, bytes.Equal(want[k], b), "tile %v", k)
	}
}

// TestPartOfADamagedGeoPackage: a source whose tile pages hold garbage
// (bytes overwritten at random after the schema) fails its export with
// a reason, or exports what SQLite reads there; never a panic, and never
// an export that runs on.
func TestPartOfADamagedGeoPackage(t *testing.T) {
	rec := sizedFixture(t)
	path := filepath.Join(rec.Location, raster.SourceName)
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 99))
			b := bytes.Clone(orig)
			for range 1 + seed*seed {
				i := 16*4096 + rnd.IntN(len(b)-16*4096)
				b[i] = byte(rnd.UintN(256))
			}
			require.NoError(t, os.WriteFile(path, b, 0o644))
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			j := job(t, rec, exporttask.CreateRequest{ROI: roiOf(square(34.1, 31.1, 34.9, 31.9))})
			_, err := raster.New(raster.Options{TempDir: t.TempDir()}).Export(ctx, j, testout.New(t.TempDir()))
			require.NoError(t, ctx.Err(), "the export ran on")
			if err != nil {
				t.Log(err)
				var pe *export.PermanentError
				require.True(t, errors.As(err, &pe), "a permanent failure, not %v", err)
				assert.Contains(t, pe.Reason, "the tiles of catalog record "+recordID+" are unreadable")
				assert.NotContains(t, pe.Reason, rec.Location, "no server path")
			}
		})
	}
}
