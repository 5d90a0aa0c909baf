package testkit

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// RunClients runs b.N calls of op, numbered 1 to b.N, spread over clients
// concurrent goroutines, and reports the p50 and p99 latency of a call
// (metrics p50-µs and p99-µs). A call that fails fails b and stops its
// client.
func RunClients(b *testing.B, clients int, op func(i int64) error) {
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
