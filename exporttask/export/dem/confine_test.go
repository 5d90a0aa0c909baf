//go:build unix

package dem

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// TestSourceSwappedForALinkOutside: a registered GeoTIFF replaced by a
// link to a file outside its directory (here an identical copy, same size
// and modification time, so only the link tells) is not read.
func TestSourceSwappedForALinkOutside(t *testing.T) {
	rec := demoRecord(t, 1.0/120)
	p := filepath.Join(rec.Location, DemoFile)
	outside := filepath.Join(t.TempDir(), "elsewhere.tif")
	require.NoError(t, os.Rename(p, outside))
	require.NoError(t, os.Symlink(outside, p))
	j := job(t, rec, jobtest.Triangle())
	dir := t.TempDir()
	_, err := New(Options{}).Export(context.Background(), j, testout.New(dir))
	require.Error(t, err)
	assert.True(t, export.IsPermanent(err), "%v", err)
	assert.ErrorContains(t, err, "leads outside the source")
	assert.Empty(t, files(t, dir))
}

// TestFIFOSourceDoesNotBlock: a FIFO given as a DEM source is refused at
// catalog add at once, not read forever.
func TestFIFOSourceDoesNotBlock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "dem.tif")
	require.NoError(t, syscall.Mkfifo(p, 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := Inspect(context.Background(), catalog.Source{Path: p})
		done <- err
	}()
	select {
	case err := <-done:
		var se *export.SourceError
		require.ErrorAs(t, err, &se)
		assert.Contains(t, se.Problem, "is not a regular file (a FIFO)")
	case <-time.After(time.Minute):
		t.Fatal("catalog add of a FIFO did not end within a minute")
	}
}
