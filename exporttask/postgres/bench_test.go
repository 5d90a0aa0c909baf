package postgres_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
)

// clients is the number of concurrent clients of the benchmarks.
const clients = 32

func benchDB(b *testing.B) *postgres.DB {
	db, err := postgres.Open(b.Context(), freshSchema(b, testDSN(b)))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	return db
}

// benchCustomer spreads the benchmark's tasks over 8 customers.
func benchCustomer(i int64) string { return fmt.Sprintf("customer-%d", i%8) }

// BenchmarkCreate measures creates of distinct tasks of 8 customers, each
// with a dedup key and a quota check, from 32 concurrent clients.
func BenchmarkCreate(b *testing.B) {
	db := benchDB(b)
	testkit.RunClients(b, clients, func(i int64) error {
		_, _, err := db.Create(b.Context(), testkit.BenchParams(benchCustomer(i), i))
		return err
	})
}

// BenchmarkGet measures reads of existing tasks from 32 concurrent
// clients, over 2,000 tasks.
func BenchmarkGet(b *testing.B) {
	db := benchDB(b)
	const tasks = 2000
	ids := make([]int64, 0, tasks)
	for i := range int64(tasks) {
		t, _, err := db.Create(b.Context(), testkit.BenchParams(benchCustomer(i), i))
		require.NoError(b, err)
		ids = append(ids, t.ID)
	}
	testkit.RunClients(b, clients, func(i int64) error {
		j := i * 7919 % tasks
		_, err := db.Get(b.Context(), benchCustomer(j), ids[j])
		return err
	})
}

// BenchmarkCreateOneCustomer measures creates from 32 concurrent clients
// of one customer, whose creates run one at a time (the quota and dedup
// checks hold the customer's lock).
func BenchmarkCreateOneCustomer(b *testing.B) {
	db := benchDB(b)
	testkit.RunClients(b, clients, func(i int64) error {
		_, _, err := db.Create(b.Context(), testkit.BenchParams("acme", i))
		return err
	})
}
