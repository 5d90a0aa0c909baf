package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// TestFullDisk opens a database on a small tmpfs, fills the disk, and
// sees Ping and, within a few creates (the write-ahead log may still hold
// room), Create fail with errors wrapping exporttask.ErrStorageFull; both
// succeed again once the space is freed. It skips where a tmpfs cannot be
// mounted.
func TestFullDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "disk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	testkit.MountTmpfs(t, dir, "8m")
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "tasks.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	create := func(i int) error {
		p := testkit.CreateParams("acme", testkit.SampleCatalogID(i))
		p.Now = time.Now()
		_, _, err := db.Create(ctx, p)
		return err
	}
	require.NoError(t, create(0))
	require.NoError(t, db.Ping(ctx))

	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	require.NoError(t, err)
	for buf := make([]byte, 64<<10); ; {
		if _, err := f.Write(buf); err != nil {
			require.ErrorIs(t, err, syscall.ENOSPC)
			break
		}
	}
	require.NoError(t, f.Close())

	err = db.Ping(ctx)
	assert.ErrorIs(t, err, exporttask.ErrStorageFull, "Ping: %v", err)
	var full error
	for i := 1; i < 1000 && full == nil; i++ {
		full = create(i)
	}
	require.Error(t, full, "no create met the full disk")
	assert.ErrorIs(t, full, exporttask.ErrStorageFull)

	require.NoError(t, os.Remove(filler))
	assert.NoError(t, db.Ping(ctx))
	assert.NoError(t, create(5000))
}
