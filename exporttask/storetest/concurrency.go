package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/parallel"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func testConcurrentCreates(t *testing.T, s taskstore.Store) {
	const goroutines, each = 16, 25
	// Parameters are built here: require must not run on other goroutines.
	ps := make([][]taskstore.CreateParams, goroutines)
	for g := range goroutines {
		for i := range each {
			customer := []string{acme, globex}[g%2]
			ps[g] = append(ps[g], params(t, customer, request(fmt.Sprintf("rec-%d-%d", g, i)), at(time.Duration(i)*time.Millisecond)))
		}
	}
	created := make([][]exporttask.Task, goroutines)
	errs := parallel.Run(goroutines, func(g int) error {
		for i, p := range ps[g] {
			task, replayed, err := s.Create(ctx(t), p)
			if err != nil {
				return err
			}
			if replayed {
				return fmt.Errorf("create %d/%d was replayed as task %d", g, i, task.ID)
			}
			created[g] = append(created[g], task)
		}
		return nil
	})
	for _, err := range errs {
		require.NoError(t, err)
	}

	seen := make(map[int64]bool)
	perCustomer := map[string]int{}
	for g, tasks := range created {
		customer := []string{acme, globex}[g%2]
		for _, task := range tasks {
			assert.False(t, seen[task.ID], "id %d given twice", task.ID)
			seen[task.ID] = true
			perCustomer[customer]++
			assert.Equal(t, task, get(t, s, customer, task.ID), "every create is stored")
		}
	}
	assert.Len(t, seen, goroutines*each)
	for customer, n := range perCustomer {
		list, more, err := s.List(ctx(t), taskstore.ListParams{Customer: customer, Limit: 1000})
		require.NoError(t, err)
		assert.False(t, more)
		assert.Len(t, list, n, "customer %s", customer)
	}
}

func testConcurrentQuota(t *testing.T, s taskstore.Store) {
	const goroutines = 40
	ps := make([]taskstore.CreateParams, goroutines)
	for i := range ps {
		// Ids of one length: every task needs as much.
		ps[i] = sized(t, acme, fmt.Sprintf("rec-%02d", i), 100, 0, at(0))
	}
	for i := range ps {
		ps[i].Quota = 10 * need(t, ps[0])
	}
	errs := parallel.Run(goroutines, func(i int) error {
		_, _, err := s.Create(ctx(t), ps[i])
		return err
	})
	ok, refused := 0, 0
	for _, err := range errs {
		var qe *taskstore.QuotaError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &qe):
			refused++
		default:
			require.NoError(t, err)
		}
	}
	assert.Equal(t, 10, ok, "exactly the quota's worth of tasks is accepted")
	assert.Equal(t, goroutines-10, refused)
	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 100})
	require.NoError(t, err)
	assert.Len(t, list, 10)
}

func testConcurrentDedup(t *testing.T, s taskstore.Store) {
	const goroutines = 2 * exporttask.MaxWebhooks
	var mu sync.Mutex
	ids := map[int64]int{}
	fresh := 0
	ps := make([]taskstore.CreateParams, goroutines)
	// MaxWebhooks URLs, each subscribed by two creates to one event each.
	events := []exporttask.Event{exporttask.EventCompleted, exporttask.EventFailed}
	for i := range ps {
		url := fmt.Sprintf("https://hooks.example.com/%d", i%exporttask.MaxWebhooks)
		ps[i] = params(t, acme, request("rec-1", hook(url, events[i/exporttask.MaxWebhooks])), at(0))
	}
	errs := parallel.Run(goroutines, func(i int) error {
		task, replayed, err := s.Create(ctx(t), ps[i])
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		ids[task.ID]++
		if !replayed {
			fresh++
		}
		return nil
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	assert.Len(t, ids, 1, "every duplicate returns the one task")
	assert.Equal(t, 1, fresh, "exactly one create stores the task")
	for id := range ids {
		hooks := get(t, s, acme, id).Webhook
		assert.Len(t, hooks, exporttask.MaxWebhooks)
		for _, h := range hooks {
			assert.ElementsMatch(t, events, h.Events, "no merge is lost: %s", h.URL)
		}
	}
}

func testConcurrentClaims(t *testing.T, s taskstore.Store) {
	const tasks, workers = 30, 8
	want := map[int64]bool{}
	for i := range tasks {
		want[create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i)), at(0))).ID] = true
	}

	claimed := make([][]int64, workers)
	errs := parallel.Run(workers, func(w int) error {
		worker := fmt.Sprintf("worker-%d", w)
		for range 2 * tasks { // bounded: a broken store must not loop forever
			task, ok, err := s.Claim(ctx(t), worker, at(time.Second), time.Hour)
			if err != nil || !ok {
				return err
			}
			if task.Status != exporttask.StatusInProgress {
				return fmt.Errorf("claimed task %d is %s", task.ID, task.Status)
			}
			claimed[w] = append(claimed[w], task.ID)
		}
		return fmt.Errorf("%s claimed more tasks than there are", worker)
	})
	assertClaimedOnce(t, errs, claimed, want)
	noClaim(t, s, at(2*time.Second))
}

// assertClaimedOnce checks the outcome of concurrent claims: no worker
// failed, and the tasks claimed (claimed[w] lists worker w's) are exactly
// the tasks in want, each claimed once.
func assertClaimedOnce(t *testing.T, errs []error, claimed [][]int64, want map[int64]bool) {
	t.Helper()
	for _, err := range errs {
		require.NoError(t, err)
	}
	got := map[int64]int{}
	for _, ids := range claimed {
		for _, id := range ids {
			got[id]++
		}
	}
	for id := range want {
		assert.Equal(t, 1, got[id], "task %d claims", id)
	}
	assert.Len(t, got, len(want))
}
