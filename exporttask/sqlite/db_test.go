package sqlite_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestReopenKeepsTasksAndMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	db, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	task, _, err := db.Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	require.NoError(t, err)
	require.NoError(t, db.Close())

	db, err = sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	got, err := db.Get(t.Context(), "acme", task.ID)
	require.NoError(t, err)
	assert.Equal(t, task, got)
	require.NoError(t, db.Close())

	raw, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer raw.Close()
	var versions int
	require.NoError(t, raw.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&versions))
	assert.Equal(t, testkit.MigrationFiles(t, "migrations"), versions, "each migration is recorded once")
	var mode string
	require.NoError(t, raw.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
	assert.Equal(t, "wal", mode)
}

func TestConcurrentOpensOfOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	dbs := testkit.OpenConcurrently(t, 4, func() (*sqlite.DB, error) { return sqlite.Open(t.Context(), path) })

	// Two handles on one file see each other's writes.
	task, _, err := dbs[0].Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	require.NoError(t, err)
	got, err := dbs[3].Get(t.Context(), "acme", task.ID)
	require.NoError(t, err)
	assert.Equal(t, task, got)
}

func TestMemoryDatabasesAreSeparate(t *testing.T) {
	a, err := sqlite.Open(t.Context(), sqlite.Memory)
	require.NoError(t, err)
	defer a.Close()
	b, err := sqlite.Open(t.Context(), sqlite.Memory)
	require.NoError(t, err)
	defer b.Close()

	task, _, err := a.Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	require.NoError(t, err)
	_, err = b.Get(t.Context(), "acme", task.ID)
	assert.ErrorIs(t, err, taskstore.ErrNotFound)
}

func TestOpenErrors(t *testing.T) {
	_, err := sqlite.Open(t.Context(), "")
	assert.ErrorContains(t, err, "sqlite: open")
	_, err = sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "tasks.db?x=1"))
	assert.ErrorContains(t, err, "file: URI")
	_, err = sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "missing", "dir", "tasks.db"))
	assert.ErrorContains(t, err, "sqlite: open")
}

func TestFileURI(t *testing.T) {
	db, err := sqlite.Open(t.Context(), "file:"+filepath.Join(t.TempDir(), "tasks.db")+"?cache=private")
	require.NoError(t, err)
	defer db.Close()
	_, _, err = db.Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	require.NoError(t, err)
}

func TestErrorsSayWhere(t *testing.T) {
	db, err := sqlite.Open(t.Context(), sqlite.Memory)
	require.NoError(t, err)
	_, err = db.Get(t.Context(), "acme", 7)
	assert.EqualError(t, err, "sqlite: get task 7: "+taskstore.ErrNotFound.Error())

	require.NoError(t, db.Close())
	_, _, err = db.Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	assert.ErrorContains(t, err, "sqlite: create task:", "a closed store fails, without panicking")
	assert.Error(t, db.Ping(t.Context()))
}

func TestPingFailsOnAReadOnlyDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	db, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	require.NoError(t, db.Ping(t.Context()))
	require.NoError(t, db.Close())

	ro, err := sqlite.Open(t.Context(), "file:"+path+"?mode=ro")
	require.NoError(t, err, "a migrated database opens read-only")
	defer ro.Close()
	_, err = ro.Get(t.Context(), "acme", 1)
	assert.ErrorIs(t, err, taskstore.ErrNotFound, "it reads")
	err = ro.Ping(t.Context())
	require.Error(t, err, "it cannot write, so it is not ready")
	assert.ErrorContains(t, err, "heartbeat")
	assert.ErrorContains(t, err, "readonly")
}

// TestOpenInAMissingDirectory: a database file in a directory that does
// not exist is refused with the directory named and the command that makes
// it, where SQLite's own answer read "out of memory".
func TestOpenInAMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "second")
	_, err := sqlite.Open(t.Context(), filepath.Join(dir, "exporttask.db"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the directory "+dir+" does not exist (create it with: mkdir -p "+dir+")")
	assert.NotContains(t, err.Error(), "out of memory")
}
