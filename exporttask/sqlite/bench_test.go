package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// clients is the number of concurrent clients of the benchmarks, as in the
// server's load goals.
const clients = 32

func benchDB(b *testing.B) *sqlite.DB {
	db, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkCreate measures creates of distinct tasks, each with a dedup
// key and a quota check, from 32 concurrent clients on a file database.
func BenchmarkCreate(b *testing.B) {
	db := benchDB(b)
	testkit.RunClients(b, clients, func(i int64) error {
		_, _, err := db.Create(b.Context(), testkit.BenchParams("acme", i))
		return err
	})
}

// BenchmarkGet measures reads of existing tasks from 32 concurrent
// clients, on a file database holding 10,000 tasks.
func BenchmarkGet(b *testing.B) {
	db := benchDB(b)
	const tasks = 10000
	for i := range int64(tasks) {
		_, _, err := db.Create(b.Context(), testkit.BenchParams("acme", i))
		require.NoError(b, err)
	}
	testkit.RunClients(b, clients, func(i int64) error {
		_, err := db.Get(b.Context(), "acme", i*7919%tasks+1)
		return err
	})
}
