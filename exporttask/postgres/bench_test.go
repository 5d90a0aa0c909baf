package postgres_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
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

func benchParams(i int64) exporttask.CreateParams {
	r := exporttask.CreateRequest{
		CatalogRecordID: fmt.Sprintf("record-%d", i),
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		Description:     "benchmark",
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.com/x",
			Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}}},
	}
	key, _ := exporttask.DedupKey(r)
	return exporttask.CreateParams{Customer: fmt.Sprintf("customer-%d", i%8), Request: r, DedupKey: key,
		EstimatedSize: 1 << 20, EstimatedTime: 30, Quota: 1 << 50, Now: time.Now()}
}

// runClients runs b.N calls of op spread over the benchmark's clients and
// reports the p50 and p99 latency of a call.
func runClients(b *testing.B, op func(i int64) error) {
	var (
		next      atomic.Int64
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
		wg        sync.WaitGroup
	)
	b.ResetTimer()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					break
				}
				start := time.Now()
				if err := op(i); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	b.StopTimer()
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		b.ReportMetric(float64(latencies[n/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(latencies[n*99/100].Microseconds()), "p99-µs")
	}
}

// BenchmarkCreate measures creates of distinct tasks of 8 customers, each
// with a dedup key and a quota check, from 32 concurrent clients.
func BenchmarkCreate(b *testing.B) {
	db := benchDB(b)
	runClients(b, func(i int64) error {
		_, _, err := db.Create(b.Context(), benchParams(i))
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
		t, _, err := db.Create(b.Context(), benchParams(i))
		require.NoError(b, err)
		ids = append(ids, t.ID)
	}
	runClients(b, func(i int64) error {
		j := i * 7919 % tasks
		_, err := db.Get(b.Context(), fmt.Sprintf("customer-%d", j%8), ids[j])
		return err
	})
}
