package postgres_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
)

// TestFullDisk puts the store's tables in a tablespace on a small tmpfs
// (the write-ahead log stays on the cluster's own disk, so the server
// keeps running), fills it, and sees creates fail with an error wrapping
// exporttask.ErrStorageFull (PostgreSQL's disk_full, 53100) and Ping
// report it; once the space is freed, creates succeed and, after the
// hold, Ping does too. It needs root (to mount the tmpfs and hand it to
// the server's user) and skips otherwise.
func TestFullDisk(t *testing.T) {
	dsn := testDSN(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var dataDir string
	require.NoError(t, conn.QueryRow(ctx, `SELECT current_setting('data_directory')`).Scan(&dataDir))
	owner, err := os.Stat(dataDir)
	if err != nil {
		t.Skipf("the server's data directory is not on this machine (%v): skipping", err)
	}
	st := owner.Sys().(*syscall.Stat_t)

	base := t.TempDir()
	// The server's user must reach the directory: open the test's own
	// temporary directories (0700 by default) to it.
	require.NoError(t, os.Chmod(base, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	dir := filepath.Join(base, "disk")
	require.NoError(t, os.Mkdir(dir, 0o700))
	testkit.MountTmpfs(t, dir, "2m")
	require.NoError(t, os.Chown(dir, int(st.Uid), int(st.Gid)))
	require.NoError(t, os.Chmod(dir, 0o700))
	ts := "exporttask_full_" + strings.ReplaceAll(filepath.Base(filepath.Dir(dir)), "-", "_")
	ts = strings.ToLower(ts)
	_, err = conn.Exec(ctx, `CREATE TABLESPACE `+ts+` LOCATION '`+dir+`'`)
	require.NoError(t, err)

	// Cleanups run last first: the store closes, freshSchema drops the
	// schema, then the tablespace goes, then the tmpfs.
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Errorf("dropping the tablespace: %v", err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), `DROP TABLESPACE `+ts); err != nil {
			t.Errorf("dropping the tablespace: %v", err)
		}
	})
	schemaDSN := freshSchema(t, dsn) + "&default_tablespace=" + ts
	db, err := postgres.Open(ctx, schemaDSN, postgres.WithFullDiskHold(300*time.Millisecond))
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
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

	var full error
	for i := range 2000 {
		p := testkit.CreateParams("acme", testkit.SampleCatalogID(i))
		p.Quota = 1 << 40 // the create that takes the customer's lock
		p.Now = time.Now()
		if _, _, err := db.Create(ctx, p); err != nil {
			full = err
			break
		}
	}
	require.Error(t, full, "no create met the full tablespace")
	assert.ErrorIs(t, full, exporttask.ErrStorageFull)
	assert.Contains(t, full.Error(), "53100")
	err = db.Ping(ctx)
	assert.ErrorIs(t, err, exporttask.ErrStorageFull, "Ping reports the full disk: %v", err)

	require.NoError(t, os.Remove(filler))
	p := testkit.CreateParams("acme", testkit.SampleCatalogID(9999))
	p.Now = time.Now()
	_, _, err = db.Create(ctx, p)
	require.NoError(t, err, "a create once space is freed")
	require.Eventually(t, func() bool { return !errors.Is(db.Ping(ctx), exporttask.ErrStorageFull) },
		10*time.Second, 20*time.Millisecond, "Ping recovers after the hold")
	assert.NoError(t, db.Ping(ctx))
}
