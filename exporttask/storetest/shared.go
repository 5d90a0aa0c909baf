package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/parallel"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// RunShared checks the guarantees that must hold across processes: open
// returns several stores (at least two) over one fresh, empty database,
// as separate replicas of the server would hold, and the subtests use
// them all at once. RunShared closes them when each subtest ends.
func RunShared(t *testing.T, open func(t *testing.T) []taskstore.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, ss []taskstore.Store)
	}{
		{"Claims", testSharedClaims},
		{"Quota", testSharedQuota},
		{"Deliveries", testSharedDeliveries},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ss := open(t)
			require.GreaterOrEqual(t, len(ss), 2, "RunShared needs at least two stores over one database")
			for _, s := range ss {
				t.Cleanup(func() { assert.NoError(t, s.Close(), "closing a store") })
			}
			tc.fn(t, ss)
		})
	}
}

func testSharedClaims(t *testing.T, ss []taskstore.Store) {
	const tasks, perStore = 40, 4
	want := map[int64]bool{}
	for i := range tasks {
		want[create(t, ss[i%len(ss)], params(t, acme, request(fmt.Sprintf("rec-%d", i)), at(0))).ID] = true
	}

	workers := len(ss) * perStore
	claimed := make([][]int64, workers)
	errs := parallel.Run(workers, func(w int) error {
		s := ss[w%len(ss)]
		for range 2 * tasks {
			task, ok, err := s.Claim(ctx(t), fmt.Sprintf("worker-%d", w), at(time.Second), time.Hour)
			if err != nil || !ok {
				return err
			}
			claimed[w] = append(claimed[w], task.ID)
		}
		return fmt.Errorf("worker %d claimed more tasks than there are", w)
	})
	assertClaimedOnce(t, errs, claimed, want)
}

func testSharedQuota(t *testing.T, ss []taskstore.Store) {
	const creates = 40
	ps := make([]taskstore.CreateParams, creates)
	dupPs := make([]taskstore.CreateParams, creates)
	for i := range creates {
		ps[i] = sized(t, acme, fmt.Sprintf("rec-%02d", i), 100, 0, at(0))
		ps[i].Quota = 10 * need(t, ps[i]) // ids of one length: every task needs as much
		// MaxWebhooks URLs, subscribed to one event per create.
		url := fmt.Sprintf("https://hooks.example.com/%d", i%exporttask.MaxWebhooks)
		ev := exporttask.Events()[i/exporttask.MaxWebhooks]
		dupPs[i] = params(t, globex, request("same", hook(url, ev)), at(0))
	}
	errs := parallel.Run(creates, func(i int) error {
		_, _, err := ss[i%len(ss)].Create(ctx(t), ps[i])
		return err
	})
	ok := 0
	for _, err := range errs {
		var qe *taskstore.QuotaError
		if err == nil {
			ok++
		} else if !errors.As(err, &qe) {
			require.NoError(t, err)
		}
	}
	assert.Equal(t, 10, ok, "the quota holds across stores")

	dups := parallel.Run(creates, func(i int) error {
		_, _, err := ss[i%len(ss)].Create(ctx(t), dupPs[i])
		return err
	})
	for _, err := range dups {
		require.NoError(t, err)
	}
	list, _, err := ss[0].List(ctx(t), taskstore.ListParams{Customer: globex, Limit: 100})
	require.NoError(t, err)
	require.Len(t, list, 1, "dedup holds across stores")
	require.Len(t, list[0].Webhook, exporttask.MaxWebhooks)
	for _, w := range list[0].Webhook {
		assert.Len(t, w.Events, creates/exporttask.MaxWebhooks, "no merge is lost: %s", w.URL)
	}
}

func testSharedDeliveries(t *testing.T, ss []taskstore.Store) {
	const tasks = 20
	for i := range tasks {
		create(t, ss[0], params(t, acme, request(fmt.Sprintf("rec-%d", i),
			hook(hookA, exporttask.EventStarted), hook(hookB, exporttask.EventStarted)), at(0)))
		claim(t, ss[1], "w", at(0))
	}
	workers := 4 * len(ss)
	got := make([][]int64, workers)
	errs := parallel.Run(workers, func(w int) error {
		s := ss[w%len(ss)]
		for range 2 * tasks * 2 {
			ds, err := s.ClaimDeliveries(ctx(t), taskstore.DeliveryClaim{Now: at(time.Second), Limit: 3, Lease: time.Hour})
			if err != nil || len(ds) == 0 {
				return err
			}
			for _, d := range ds {
				got[w] = append(got[w], d.ID)
			}
		}
		return fmt.Errorf("worker %d claimed more deliveries than there are", w)
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	seen := map[int64]int{}
	for _, ids := range got {
		for _, id := range ids {
			seen[id]++
		}
	}
	assert.Len(t, seen, 2*tasks)
	for id, n := range seen {
		assert.Equal(t, 1, n, "delivery %d claims", id)
	}
}
