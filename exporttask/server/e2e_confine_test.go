//go:build unix

package server_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
	"github.com/openapi-viewer/viewer/exporttask/internal/hostiletest"
)

// TestHostileTilesFailTheirTaskOverHTTP: a gdal2tiles pyramid registered
// with "catalog add", whose tile is then swapped for a link to a secret
// file outside the source, or for a PNG declaring 2^24 × 2^24 pixels
// (which panicked the thumbnail step and so the server), ends FAILED with
// a reason naming the tile inside the source, no server path and no
// secret; the server lives on, and once the tile is put back the same
// request COMPLETES.
func TestHostileTilesFailTheirTaskOverHTTP(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	work := t.TempDir()
	t.Chdir(work)
	srcDir := t.TempDir()
	writeGradientPNG(t, filepath.Join(srcDir, "relief.png"), 512, 512)
	georef := filepath.Join(srcDir, "relief.tif")
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-a_ullr", "34", "32", "35", "31",
		filepath.Join(srcDir, "relief.png"), georef)
	tmsDir := filepath.Join(srcDir, "tms")
	gdaltest.Run(t, gdaltest.Require(t, "gdal2tiles.py"), "-q", "-p", "geodetic", "--tmscompatible", "-z", "6-8",
		"-w", "none", georef, tmsDir)
	rec := addRecord(t, "-domain", "RASTER", tmsDir)

	// The last tile of the deepest level: not the first of its level, and
	// drawn by the thumbnails.
	var tiles []string
	require.NoError(t, filepath.WalkDir(filepath.Join(tmsDir, "8"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			tiles = append(tiles, p)
		}
		return err
	}))
	sort.Strings(tiles)
	require.Greater(t, len(tiles), 1)
	victim := tiles[len(tiles)-1]
	rel, err := filepath.Rel(tmsDir, victim)
	require.NoError(t, err)
	good, err := os.ReadFile(victim)
	require.NoError(t, err)
	secret := "root:$6$must-not-leave$:19000:0:99999:7:::"
	shadow := filepath.Join(t.TempDir(), "shadow")
	require.NoError(t, os.WriteFile(shadow, []byte(secret), 0o600))

	s := startExampleServer(t)
	for _, c := range []struct {
		name  string
		swap  func() error
		wants []string
	}{
		{"link outside", func() error { return os.Symlink(shadow, victim) }, []string{rel, "leads outside the source"}},
		{"PNG declaring 2^24²", func() error { return os.WriteFile(victim, hostiletest.PNG(1<<24, 1<<24), 0o644) },
			[]string{"is a png image of 16777216×16777216 pixels, not 256×256"}},
	} {
		require.NoError(t, os.Remove(victim))
		require.NoError(t, c.swap(), c.name)
		// The create estimates from the selection index written at
		// catalog add, without reading the tiles, so it is accepted; the
		// export reads the swapped tile and fails its task.
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		task, err := s.client.Create(ctx, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain,
			ArtifactCRS: exporttask.CRS4326, Webhook: []exporttask.Webhook{{URL: s.sink, Events: []exporttask.Event{exporttask.EventCompleted}}}})
		require.NoError(t, err, c.name)
		done, err := s.client.Wait(ctx, task.ID, 20*time.Millisecond)
		require.NoError(t, err, c.name)
		assert.Equal(t, exporttask.StatusFailed, done.Status, c.name)
		assert.Empty(t, done.Artifacts, c.name)
		reason := done.ErrorReason
		cancel()
		for _, w := range c.wants {
			assert.Contains(t, reason, w, c.name)
		}
		assert.NotContains(t, reason, srcDir, c.name)
		assert.NotContains(t, reason, "/tmp", c.name)
		assert.NotContains(t, reason, secret, c.name)
		assert.NotContains(t, reason, "*", c.name)
		assert.False(t, strings.Contains(reason, "raster."), c.name)
	}
	require.NoError(t, os.Remove(victim))
	require.NoError(t, os.WriteFile(victim, good, 0o644))
	task, dir := s.export(t, rec, nil)
	require.Equal(t, exporttask.StatusCompleted, task.Status, task.ErrorReason)
	assert.NotEmpty(t, dir)
}
