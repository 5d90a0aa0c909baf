package server

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestTimedStoresTimeEveryMethod calls every method of the server's timed
// store and of those it times for the worker and the deliverer once, and checks that each call is recorded under its own op.
func TestTimedStoresTimeEveryMethod(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	m := newMetrics(st)
	srv := &Server{metrics: m}
	s := instrument(st, m)
	w := srv.TimeWorkerStore(st)
	d := srv.TimeDelivererStore(st)
	now := time.Now()

	// Outcomes do not matter here (several calls fail: no such task).
	_, _, _ = s.Create(ctx, taskstore.CreateParams{})
	_, _ = s.Get(ctx, "c", 1)
	_, _, _ = s.List(ctx, taskstore.ListParams{Customer: "c", Limit: 1})
	_, _ = s.Abort(ctx, "c", 1, now)
	_ = s.Dismiss(ctx, "c", 1)
	_, _ = s.ListDeliveries(ctx, "c", 1, 0, 1)
	_, _ = s.Redeliver(ctx, "c", 1, 1, now)
	_, _ = s.Usage(ctx, "c")
	_, _ = s.Stats(ctx)
	_ = s.Ping(ctx)
	_, _, _ = w.Claim(ctx, "w", now, time.Second)
	_, _ = w.Progress(ctx, 1, "w", 1, now, time.Second)
	_, _ = w.ReleaseForRetry(ctx, 1, "w", now, time.Second)
	_, _ = w.Finish(ctx, 1, "w", taskstore.FinishParams{}, now)
	_, _ = w.Expire(ctx, now, 1)
	_, _ = w.Purge(ctx, now, 1)
	_, _ = w.ReleaseLeases(ctx, "w/")
	_, _ = d.ClaimDeliveries(ctx, taskstore.DeliveryClaim{Now: now, Limit: 1, Lease: time.Second})
	_ = d.DeliveryDone(ctx, 1, taskstore.DeliveryResult{Delivered: true})
	_, _ = d.PruneDeliveries(ctx, now, 1)

	families, err := m.reg.Gather()
	require.NoError(t, err)
	ops := map[string]uint64{}
	for _, f := range families {
		if f.GetName() != "exporttask_store_operation_duration_seconds" {
			continue
		}
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "op" {
					ops[l.GetValue()] += s.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	var names []string
	for op, n := range ops {
		names = append(names, op)
		if op == "stats" {
			// The scrape itself counts too (see statsCollector), before
			// or after the histogram is read.
			assert.Contains(t, []uint64{1, 2}, n, "calls of %s", op)
			continue
		}
		assert.Equal(t, uint64(1), n, "calls of %s", op)
	}
	sort.Strings(names)
	assert.Equal(t, []string{
		"abort", "claim", "claim_deliveries", "create", "delivery_done", "dismiss", "expire", "finish", "get",
		"list", "list_deliveries", "ping", "progress", "prune_deliveries", "purge", "redeliver", "release_for_retry", "release_leases",
		"stats", "usage",
	}, names)
}
