package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testDSN returns the test server's dsn, or skips t when none is set.
func testDSN(t testing.TB) string {
	dsn := os.Getenv("EXPORTTASK_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("EXPORTTASK_TEST_POSTGRES_DSN is not set: skipping the PostgreSQL tests " +
			"(set it to a postgres:// URL of a database the tests may create schemas in)")
	}
	return dsn
}

// freshSchema creates an empty schema, dropped when t ends, and returns
// dsn with its search_path set to it.
func freshSchema(t testing.TB, dsn string) string {
	t.Helper()
	var b [8]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	schema := "exporttask_test_" + hex.EncodeToString(b[:])

	conn, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), "CREATE SCHEMA "+schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})

	u, err := url.Parse(dsn)
	require.NoError(t, err, "EXPORTTASK_TEST_POSTGRES_DSN must be a postgres:// URL")
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func TestConformance(t *testing.T) {
	dsn := testDSN(t)
	storetest.Run(t, func(t *testing.T) taskstore.Store {
		db, err := postgres.Open(t.Context(), freshSchema(t, dsn))
		require.NoError(t, err)
		return db
	})
}

func TestConformanceShared(t *testing.T) {
	dsn := testDSN(t)
	storetest.RunShared(t, func(t *testing.T) []taskstore.Store {
		schema := freshSchema(t, dsn)
		var ss []taskstore.Store
		for range 3 {
			db, err := postgres.Open(t.Context(), schema)
			require.NoError(t, err)
			ss = append(ss, db)
		}
		return ss
	})
}

// openWithConn opens a store in a fresh schema, and a connection to that
// schema to look at its tables; both close when t ends.
func openWithConn(t *testing.T) (*postgres.DB, *pgx.Conn) {
	t.Helper()
	dsn := freshSchema(t, testDSN(t))
	db, err := postgres.Open(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close(context.Background()) })
	return db, conn
}
