package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/parallel"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// racers is how many creates of one customer the tests below start at once.
const racers = 32

// createAll runs the creates ps at once and returns, for each, the task it
// answered and whether it was replayed.
func createAll(t *testing.T, s taskstore.Store, ps []taskstore.CreateParams) ([]exporttask.Task, []bool) {
	t.Helper()
	// Reads at once first, so that a store with a connection pool has
	// its connections open and the creates below do overlap.
	for _, err := range parallel.Run(len(ps), func(int) error {
		_, err := s.Get(ctx(t), ps[0].Customer, 1<<40)
		if errors.Is(err, taskstore.ErrNotFound) {
			return nil
		}
		return err
	}) {
		require.NoError(t, err)
	}
	tasks := make([]exporttask.Task, len(ps))
	replayed := make([]bool, len(ps))
	errs := parallel.Run(len(ps), func(i int) error {
		var err error
		tasks[i], replayed[i], err = s.Create(ctx(t), ps[i])
		return err
	})
	for i, err := range errs {
		require.NoError(t, err, "create %d", i)
	}
	return tasks, replayed
}

// assertOneTask checks that the creates answered one task, stored once:
// exactly one create is not a replay, and the customer has that one task.
func assertOneTask(t *testing.T, s taskstore.Store, tasks []exporttask.Task, replayed []bool) {
	t.Helper()
	ids := map[int64]bool{}
	fresh := 0
	for i, task := range tasks {
		ids[task.ID] = true
		if !replayed[i] {
			fresh++
		}
	}
	assert.Len(t, ids, 1, "every create answers the same task")
	assert.Equal(t, 1, fresh, "exactly one create stores a task")
	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 2 * racers})
	require.NoError(t, err)
	assert.Len(t, list, 1, "the customer has one task")
}

// Many identical creates at once, without a quota (nothing serialises
// them in a store that runs creates side by side): one task.
func testConcurrentSameDedupKey(t *testing.T, s taskstore.Store) {
	ps := make([]taskstore.CreateParams, racers)
	for i := range ps {
		ps[i] = params(t, acme, request("rec-1", hook(hookA, exporttask.EventCompleted)), at(0))
	}
	tasks, replayed := createAll(t, s, ps)
	assertOneTask(t, s, tasks, replayed)
	assert.Len(t, drain(t, s, at(0)), 0, "identical webhooks merge into nothing new")
}

// Many creates with one Idempotency-Key at once: one task, and each
// create's key names it.
func testConcurrentSameIdempotencyKey(t *testing.T, s taskstore.Store) {
	ps := make([]taskstore.CreateParams, racers)
	for i := range ps {
		ps[i] = params(t, acme, request("rec-1"), at(0))
		ps[i].IdempotencyKey = "key-1"
	}
	tasks, replayed := createAll(t, s, ps)
	assertOneTask(t, s, tasks, replayed)

	// The same request with no dedup key to fall back on: still one task.
	qs := make([]taskstore.CreateParams, racers)
	for i := range qs {
		qs[i] = params(t, globex, request("rec-1"), at(0))
		qs[i].IdempotencyKey, qs[i].Identity.Dedup = "key-2", ""
	}
	tasks, replayed = createAll(t, s, qs)
	ids := map[int64]bool{}
	fresh := 0
	for i := range tasks {
		ids[tasks[i].ID] = true
		if !replayed[i] {
			fresh++
		}
	}
	assert.Len(t, ids, 1, "every create with key-2 answers the same task")
	assert.Equal(t, 1, fresh)
}

// Creates without a quota running at once keep the storage in use exact:
// a later create with a quota sees every one of them.
func testConcurrentUsage(t *testing.T, s taskstore.Store) {
	const n = 3 * racers
	ps := make([]taskstore.CreateParams, n)
	for i := range ps {
		ps[i] = sized(t, acme, fmt.Sprintf("rec-%d", i), 100, 0, at(0))
	}
	var mu sync.Mutex
	created := 0
	errs := parallel.Run(racers, func(g int) error {
		for i := g; i < n; i += racers {
			if _, _, err := s.Create(ctx(t), ps[i]); err != nil {
				return err
			}
			mu.Lock()
			created++
			mu.Unlock()
		}
		return nil
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, n, created)

	var used int64
	for _, p := range ps {
		used += need(t, p)
	}
	last := sized(t, acme, "rec-last", 1000, used+1000, at(0))
	_, _, err := s.Create(ctx(t), last)
	var qe *taskstore.QuotaError
	require.True(t, errors.As(err, &qe), "want a quota error, got %v", err)
	assert.Equal(t, taskstore.QuotaError{Quota: used + 1000, Remaining: 1000, Requested: need(t, last)}, *qe)
	create(t, s, fit(t, sized(t, acme, "rec-fits", 0, used+1000, at(0)), 1000))
}

// keyReusers is how many creates reuse one Idempotency-Key at once with
// different requests in testConcurrentIdempotencyKeyReuse.
const keyReusers = 100

// Many creates at once with one Idempotency-Key and different requests:
// exactly one stores its task; every other fails with an
// *IdempotencyKeyReusedError naming that task, as the key and the
// request's fingerprint are checked in the create's transaction. Run with
// a quota too (the creates then take the customer's lock), without a dedup
// key (nothing else ties them), and with requests that differ only in
// their description (one export, one dedup key, other fingerprints).
func testConcurrentIdempotencyKeyReuse(t *testing.T, s taskstore.Store) {
	for _, tc := range []struct {
		name     string
		customer string
		quota    int64
		dedup    bool
		describe bool // same record, another description each
	}{
		{"no quota", acme, 0, true, false},
		{"quota", globex, 1 << 40, true, false},
		{"no dedup key", "initech", 0, false, false},
		{"description only", "umbrella", 0, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := make([]taskstore.CreateParams, keyReusers)
			for i := range ps {
				record := fmt.Sprintf("rec-%d", i)
				if tc.describe {
					record = "rec-0"
				}
				req := request(record, hook(hookA, exporttask.EventCompleted))
				if tc.describe {
					req.Description = fmt.Sprintf("copy %d", i)
				}
				ps[i] = params(t, tc.customer, req, at(0))
				ps[i].IdempotencyKey, ps[i].Quota = "reused-key", tc.quota
				if !tc.dedup {
					ps[i].Identity.Dedup = ""
				}
			}
			tasks := make([]exporttask.Task, len(ps))
			replayed := make([]bool, len(ps))
			errs := parallel.Run(len(ps), func(i int) error {
				var err error
				tasks[i], replayed[i], err = s.Create(ctx(t), ps[i])
				return err
			})
			winner := -1
			for i, err := range errs {
				if err == nil {
					assert.Equal(t, -1, winner, "creates %d and %d both stored a task", winner, i)
					assert.False(t, replayed[i], "create %d was answered with a replay", i)
					winner = i
				}
			}
			require.NotEqual(t, -1, winner, "no create succeeded: %v", errs[0])
			for i, err := range errs {
				if i == winner {
					continue
				}
				var ke *taskstore.IdempotencyKeyReusedError
				if assert.ErrorAs(t, err, &ke, "create %d", i) {
					assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "reused-key", TaskID: tasks[winner].ID}, *ke, "create %d", i)
				}
			}
			list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: tc.customer, Limit: 2 * keyReusers})
			require.NoError(t, err)
			require.Len(t, list, 1, "one task stored")
			assert.Equal(t, tasks[winner].ID, list[0].ID)
			assert.Equal(t, ps[winner].Request.CatalogRecordID, list[0].CatalogRecordID, "the winner's request")
			assert.Equal(t, ps[winner].Request.Description, list[0].Description, "the winner's request")
		})
	}
}
