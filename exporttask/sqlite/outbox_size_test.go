package sqlite_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
)

// TestOutboxDoesNotGrowWithTheRequest: a 10-webhook task with a 600 KB ROI
// leaves under 50 KB of outbox rows after its whole life, measured in the
// database file.
func TestOutboxDoesNotGrowWithTheRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	db, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })
	reqBytes, want := storetest.LargeRequestLifecycle(t, db, 600_000)
	require.GreaterOrEqual(t, reqBytes, 600_000)

	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer raw.Close()
	var n, size int64
	require.NoError(t, raw.QueryRowContext(t.Context(),
		`SELECT COUNT(*), COALESCE(SUM(LENGTH(payload) + LENGTH(url) + LENGTH(event) + LENGTH(last_error) + 8*8), 0) FROM deliveries`).
		Scan(&n, &size))
	assert.Equal(t, int64(want), n)
	t.Logf("request %d bytes; %d deliveries, %d bytes of outbox rows", reqBytes, n, size)
	assert.Less(t, size, int64(50_000))
}
