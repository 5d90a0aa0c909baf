package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
)

// TestOutboxDoesNotGrowWithTheRequest: a 10-webhook task with a 600 KB ROI
// leaves under 50 KB of outbox rows after its whole life, measured in the
// database.
func TestOutboxDoesNotGrowWithTheRequest(t *testing.T) {
	dsn := freshSchema(t, testDSN(t))
	db, err := postgres.Open(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })
	reqBytes, want := storetest.LargeRequestLifecycle(t, db, 600_000)
	require.GreaterOrEqual(t, reqBytes, 600_000)

	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(t.Context())
	var n, size int64
	require.NoError(t, conn.QueryRow(t.Context(),
		`SELECT COUNT(*), COALESCE(SUM(pg_column_size(d.*)), 0) FROM deliveries d`).Scan(&n, &size))
	assert.Equal(t, int64(want), n)
	t.Logf("request %d bytes; %d deliveries, %d bytes of outbox rows", reqBytes, n, size)
	assert.Less(t, size, int64(50_000))
}
