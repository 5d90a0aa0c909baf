package sqlite_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// bigTasks stores n aborted tasks of customer acme whose documents are
// about 100 kB each (a long keyword list stands in for a large ROI), all
// aborted at end.
func bigTasks(t *testing.T, db *sqlite.DB, n int, end time.Time) {
	t.Helper()
	for i := range n {
		p := testkit.CreateParams("acme", fmt.Sprintf("rec-%d", i))
		p.Request.Keywords = map[string]any{}
		for k := range 25 {
			p.Request.Keywords[fmt.Sprintf("k%d", k)] = strings.Repeat(fmt.Sprint(i%10), 4000)
		}
		task, _, err := db.Create(t.Context(), p)
		require.NoError(t, err)
		_, err = db.Abort(t.Context(), "acme", task.ID, end)
		require.NoError(t, err)
	}
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	return fi.Size()
}

// TestPurgeGivesPagesBack: once Purge removed the tasks that made a file
// large, the file shrinks back to about its empty size.
func TestPurgeGivesPagesBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	db, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	defer db.Close()
	end := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	bigTasks(t, db, 50, end)
	_, err = db.Purge(t.Context(), end.Add(-time.Millisecond), 1000) // none due: writes the WAL back
	require.NoError(t, err)
	full := size(t, path)
	require.Greater(t, full, int64(4<<20), "50 documents of 100 kB")

	start := time.Now()
	ids, err := db.Purge(t.Context(), end, 1000)
	took := time.Since(start)
	require.NoError(t, err)
	require.Len(t, ids, 50)
	after := size(t, path)
	t.Logf("file %d bytes with 50 aborted tasks of 100 kB, %d after Purge (%s, deletes and incremental vacuum)", full, after, took)
	assert.Less(t, after, int64(512<<10), "the removed documents' pages are given back")
}

// TestOpenConvertsAFileWithoutAutoVacuum: a file made before the store set
// auto_vacuum (none) is rewritten once at Open, keeping its tasks, so that
// Purge gives pages back.
func TestOpenConvertsAFileWithoutAutoVacuum(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = raw.Exec(`PRAGMA auto_vacuum = NONE; CREATE TABLE filler (b BLOB)`)
	require.NoError(t, err)
	for range 50 {
		_, err = raw.Exec(`INSERT INTO filler VALUES (randomblob(100000))`)
		require.NoError(t, err)
	}
	require.NoError(t, raw.Close())
	old := size(t, path)

	start := time.Now()
	db, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	t.Logf("the first Open of a %d-byte file without auto_vacuum (VACUUM) took %s", old, time.Since(start))
	end := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	bigTasks(t, db, 50, end)
	require.NoError(t, db.Close())

	mode := func() int {
		raw, err := sql.Open("sqlite", path)
		require.NoError(t, err)
		defer raw.Close()
		var m int
		require.NoError(t, raw.QueryRow(`PRAGMA auto_vacuum`).Scan(&m))
		return m
	}
	assert.Equal(t, 2, mode(), "the first Open set INCREMENTAL")

	start = time.Now()
	db, err = sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	t.Logf("reopening the converted %d-byte file took %s", size(t, path), time.Since(start))
	defer db.Close()
	list, _, err := db.List(t.Context(), taskstore.ListParams{Customer: "acme", Limit: 100})
	require.NoError(t, err)
	assert.Len(t, list, 50, "the tasks are kept")
	ids, err := db.Purge(t.Context(), end, 1000)
	require.NoError(t, err)
	assert.Len(t, ids, 50)
	assert.Less(t, size(t, path), old+int64(512<<10), "the converted file gives the tasks' pages back")
}
