package sqlite_test

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

func benchDB(b *testing.B) *sqlite.DB {
	db, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
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
	return exporttask.CreateParams{Customer: "acme", Request: r, DedupKey: key,
		EstimatedSize: 1 << 20, EstimatedTime: 30, Quota: 1 << 50, Now: time.Now()}
}

// BenchmarkCreate measures creates of distinct tasks from parallel
// clients, each with a dedup key and a quota check, on a file database.
func BenchmarkCreate(b *testing.B) {
	db := benchDB(b)
	var n atomic.Int64
	b.SetParallelism(16) // 16 x GOMAXPROCS clients
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := db.Create(b.Context(), benchParams(n.Add(1))); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkGet measures reads of random existing tasks from parallel
// clients, on a file database holding 10,000 tasks.
func BenchmarkGet(b *testing.B) {
	db := benchDB(b)
	const tasks = 10000
	for i := range int64(tasks) {
		_, _, err := db.Create(b.Context(), benchParams(i))
		require.NoError(b, err)
	}
	var n atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := n.Add(7919)%tasks + 1
			if _, err := db.Get(b.Context(), "acme", id); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
