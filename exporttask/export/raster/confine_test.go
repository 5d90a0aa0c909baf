//go:build unix

package raster_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/hostiletest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// secret is what a file outside the source holds; no export may carry it.
const secret = "root:$6$not-for-export$:19000:0:99999:7:::\n"

// hostile is one hostile form a tile file can take.
type hostile struct {
	name  string
	want  string // in the error
	write func(t *testing.T, path string)
}

// hostiles are the tile forms a source must not read: a link to a file
// outside the source (standing for /etc/shadow), a link to /dev/zero, a
// FIFO, and a sparse file of 6 GiB.
func hostiles(t *testing.T) []hostile {
	shadow := filepath.Join(t.TempDir(), "shadow")
	require.NoError(t, os.WriteFile(shadow, []byte(secret), 0o600))
	return []hostile{
		{"link outside", "leads outside the source", func(t *testing.T, p string) {
			require.NoError(t, os.Symlink(shadow, p))
		}},
		{"link to /dev/zero", "leads outside the source", func(t *testing.T, p string) {
			require.NoError(t, os.Symlink("/dev/zero", p))
		}},
		{"FIFO", "is not a regular file (a FIFO)", func(t *testing.T, p string) {
			require.NoError(t, syscall.Mkfifo(p, 0o644))
		}},
		{"sparse 6 GiB", "is larger than allowed", func(t *testing.T, p string) {
			f, err := os.Create(p)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(6<<30))
			require.NoError(t, f.Close())
		}},
	}
}

// gdal2tilesDir writes a TMS directory with gdal2tiles at levels 5 to 8.
func gdal2tilesDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	img := makeImage(t, dir, 256)
	return makeTiles(t, dir, "tms", img, "-p", "geodetic", "--tmscompatible", "-z", "5-8")
}

// lastTiles returns, for each level of a tile directory, the last tile
// file in name order (never the first tile of its level, which Inspect
// always read), as slash paths inside it.
func lastTiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	levels, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, l := range levels {
		if !l.IsDir() {
			continue
		}
		var tiles []string
		require.NoError(t, filepath.WalkDir(filepath.Join(dir, l.Name()), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".png") {
				rel, _ := filepath.Rel(dir, p)
				tiles = append(tiles, filepath.ToSlash(rel))
			}
			return err
		}))
		sort.Strings(tiles)
		if len(tiles) > 1 {
			out = append(out, tiles[len(tiles)-1])
		}
	}
	require.NotEmpty(t, out)
	return out
}

// exportWithin runs the export of j and fails the test if it has not
// ended within a minute (a read stuck on a FIFO or on /dev/zero).
func exportWithin(t *testing.T, j export.Job) ([]exporttask.Artifact, *testout.Dir, error) {
	t.Helper()
	out := testout.New(t.TempDir())
	type result struct {
		arts []exporttask.Artifact
		err  error
	}
	done := make(chan result, 1)
	go func() {
		arts, err := raster.New(raster.Options{TempDir: t.TempDir()}).Export(context.Background(), j, out)
		done <- result{arts, err}
	}()
	select {
	case r := <-done:
		return r.arts, out, r.err
	case <-time.After(time.Minute):
		t.Fatal("the export did not end within a minute")
		return nil, nil, nil
	}
}

// checkReason checks that an export failed permanently with a reason that
// contains each of want and neither an absolute path nor a Go type name,
// and that nothing was written.
func checkReason(t *testing.T, err error, out *testout.Dir, want ...string) {
	t.Helper()
	var pe *export.PermanentError
	require.ErrorAs(t, err, &pe)
	for _, w := range want {
		assert.Contains(t, pe.Reason, w)
	}
	assert.NotContains(t, pe.Reason, "/tmp")
	assert.NotContains(t, pe.Reason, os.TempDir())
	assert.NotContains(t, pe.Reason, "*")
	assert.NotContains(t, pe.Reason, "raster.")
	assert.NotContains(t, pe.Reason, secret)
	assert.Empty(t, dirEntries(t, out.Path))
}

// TestHostileTileRefusedAtCatalogAdd: a tile that is not a regular file
// inside the directory, or is too large, is refused at catalog add, though
// it is not the first tile of its level.
func TestHostileTileRefusedAtCatalogAdd(t *testing.T) {
	base := gdal2tilesDir(t)
	for _, h := range hostiles(t) {
		t.Run(h.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tms")
			require.NoError(t, os.CopyFS(dir, os.DirFS(base)))
			victims := lastTiles(t, dir)
			victim := victims[len(victims)-1]
			require.NoError(t, os.Remove(filepath.Join(dir, victim)))
			h.write(t, filepath.Join(dir, victim))
			refused(t, catalog.Source{Path: dir}, filepath.Join(dir, filepath.FromSlash(victim)), h.want)
		})
	}
}

// TestHostileTileFailsTheExport: a tile changed into a hostile form after
// catalog add (the directory's tilemapresource.xml, which the record is
// checked by, unchanged) fails the export with a reason naming the tile
// inside the source, promptly, and the secret is not exported.
func TestHostileTileFailsTheExport(t *testing.T) {
	base := gdal2tilesDir(t)
	for _, h := range hostiles(t) {
		t.Run(h.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tms")
			require.NoError(t, os.CopyFS(dir, os.DirFS(base)))
			rec := inspect(t, catalog.Source{Path: dir})
			for _, victim := range lastTiles(t, dir) {
				require.NoError(t, os.Remove(filepath.Join(dir, victim)))
				h.write(t, filepath.Join(dir, victim))
			}
			j := job(t, rec, exporttask.CreateRequest{})
			_, out, err := exportWithin(t, j)
			checkReason(t, err, out, h.want, ".png")
		})
	}
}

// TestHugeDeclaredTileFailsBeforeDecoding: a tile of a few dozen bytes
// declaring 2^19 × 2^19 pixels (1 TiB to decode) or 2^24 × 2^24 (which
// panicked the decoder), anywhere but the first tile of a level, fails
// the export with a reason naming the tile; nothing is allocated for it.
func TestHugeDeclaredTileFailsBeforeDecoding(t *testing.T) {
	base := gdal2tilesDir(t)
	for _, side := range []uint32{1 << 19, 1 << 24} {
		dir := filepath.Join(t.TempDir(), "tms")
		require.NoError(t, os.CopyFS(dir, os.DirFS(base)))
		rec := inspect(t, catalog.Source{Path: dir})
		for _, victim := range lastTiles(t, dir) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, victim), hostiletest.PNG(side, side), 0o644))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, out, err := exportWithin(t, job(t, rec, exporttask.CreateRequest{}))
		runtime.ReadMemStats(&after)
		checkReason(t, err, out, "is a png image of "+strconv.Itoa(int(side))+"×"+strconv.Itoa(int(side))+" pixels, not 256×256")
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<30))
	}
}

// TestFIFOAsGeoPackageRefusedAtCatalogAdd names a FIFO as a GeoPackage
// source: catalog add refuses it at once. Reading its SQLite header with a
// plain open blocked until a writer came, so catalog add hung.
func TestFIFOAsGeoPackageRefusedAtCatalogAdd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "imagery.gpkg")
	require.NoError(t, syscall.Mkfifo(path, 0o644))
	for _, format := range []string{"", raster.FormatGPKG} {
		t.Run("format "+strconv.Quote(format), func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := raster.Inspect(context.Background(), catalog.Source{Path: path, Format: format})
				done <- err
			}()
			select {
			case err := <-done:
				var se *export.SourceError
				require.ErrorAs(t, err, &se)
				assert.Contains(t, se.Error(), "is not a regular file (a FIFO)")
			case <-time.After(time.Minute):
				t.Fatal("catalog add of a FIFO did not end within a minute")
			}
		})
	}
}
