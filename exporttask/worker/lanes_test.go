package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// gateExporter holds each export until the test releases it (or the
// export is cancelled), telling the test which task started.
type gateExporter struct {
	started chan exporttask.Task
	release chan struct{}
}

func newGate() *gateExporter {
	return &gateExporter{started: make(chan exporttask.Task, 16), release: make(chan struct{})}
}

func (g *gateExporter) Estimate(context.Context, exporttask.CreateRequest) (export.Estimate, error) {
	return export.Estimate{Size: 1, Time: 1}, nil
}

func (g *gateExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	g.started <- t
	if t.EstimatedTime <= 1 {
		return nil, nil // small tasks finish at once
	}
	select {
	case <-g.release:
		return nil, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// createSized stores a task of customer estimated at secs seconds, through
// st (a Wakeup's store, say).
func createSized(t *testing.T, st taskstore.Store, customer string, secs int64) exporttask.Task {
	t.Helper()
	p := testkit.CreateParams(customer, fmt.Sprintf("rec-%s-%d-%d", customer, secs, time.Now().UnixNano()))
	p.EstimatedTime = secs
	p.Now = time.Now()
	task, _, err := st.Create(context.Background(), p)
	require.NoError(t, err)
	return task
}

// TestSmallWorkerTakesSmallTasksPastLargeOnes: with every general worker
// held by a large export of one customer, another customer's small task
// still runs at once, on the worker reserved for small tasks, and that
// worker never takes a large task.
func TestSmallWorkerTakesSmallTasksPastLargeOnes(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		g := newGate()
		defer close(g.release)
		large := createSized(t, s, "acme", 3600)
		wake := worker.NewWakeup()
		testkit.Background(t, testkit.FastRunner(t, s, g, func(c *worker.RunnerConfig) {
			c.Workers, c.SmallWorkers, c.SmallTask = 1, 1, 10*time.Second
			c.PollInterval = time.Hour // only the Wakeup starts work
			c.Wakeup = wake
		}).Run)
		assert.Equal(t, large.ID, testkit.Receive(t, g.started, "the large export").ID)

		large2 := createSized(t, wake.Store(s), "acme", 3600)
		small := createSized(t, wake.Store(s), "globex", 1)
		assert.Equal(t, small.ID, testkit.Receive(t, g.started, "the small export, on the reserved worker").ID)
		testkit.WaitStatus(t, s, "globex", small.ID, exporttask.StatusCompleted)

		got, err := s.Get(context.Background(), "acme", large2.ID)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusPending, got.Status, "the reserved worker leaves large tasks alone")
	})
}

// TestWakeupStartsWorkWithoutPolling: with a poll interval of an hour, a
// task created through the Wakeup's store starts at once, and so does
// each task of a burst.
func TestWakeupStartsWorkWithoutPolling(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		g := newGate()
		signal := testkit.NewSignalStore(s)
		wake := worker.NewWakeup()
		testkit.Background(t, testkit.FastRunner(t, signal, g, func(c *worker.RunnerConfig) {
			c.Workers, c.SmallWorkers = 2, -1
			c.PollInterval = time.Hour
			c.Wakeup = wake
		}).Run)
		testkit.Receive(t, signal.Claimed, "a worker to find the queue empty")

		var ids []int64
		for range 5 {
			ids = append(ids, createSized(t, wake.Store(s), customer, 1).ID)
		}
		for _, id := range ids {
			testkit.WaitStatus(t, s, customer, id, exporttask.StatusCompleted)
		}
	})
}

// TestRestartedAttemptStartsAtZeroProgress: a task whose earlier attempt
// got to 70% before its worker died is at 0% when the next attempt
// starts, not frozen at 70% while the export runs again from nothing.
func TestRestartedAttemptStartsAtZeroProgress(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		task := createSized(t, s, customer, 3600)
		start := time.Now()
		_, ok, err := s.Claim(context.Background(), "dead/1", start, 50*time.Millisecond)
		require.NoError(t, err)
		require.True(t, ok)
		_, err = s.Progress(context.Background(), task.ID, "dead/1", 70, start, 50*time.Millisecond)
		require.NoError(t, err)

		g := newGate()
		defer close(g.release)
		testkit.Background(t, testkit.FastRunner(t, s, g, nil).Run)
		testkit.Receive(t, g.started, "the second attempt")
		got, err := s.Get(context.Background(), customer, task.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, got.Attempts)
		assert.Equal(t, 0, got.Progress, "the second attempt starts from 0%")
	})
}

// retryStore signals each claim of a task's later attempt (Attempts > 1):
// a task the Runner then runs alone.
type retryStore struct {
	taskstore.Store
	retried chan int64
}

func (s retryStore) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := s.Store.Claim(ctx, worker, now, lease)
	if ok && t.Attempts > 1 {
		s.retried <- t.ID
	}
	return t, ok, err
}

// TestSmallWorkerClaimsWhileARetryWaitsToRunAlone: a task claimed again
// (its first attempt's worker died) waits to run alone behind a large
// export; meanwhile another customer's small task still runs at once on
// the worker reserved for small tasks, while no general worker starts a
// new large task before the lone attempt. Before, the waiting retry held
// every worker's claim until the large export ended.
func TestSmallWorkerClaimsWhileARetryWaitsToRunAlone(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		ctx := context.Background()
		retry := createSized(t, s, "initech", 3600)
		_, ok, err := s.Claim(ctx, "dead/1", time.Now().Add(-time.Hour), time.Millisecond) // its lease ended long ago
		require.NoError(t, err)
		require.True(t, ok)
		large := createSized(t, s, "acme", 3600)

		g := newGate()
		rs := retryStore{Store: s, retried: make(chan int64, 4)}
		wake := worker.NewWakeup()
		testkit.Background(t, testkit.FastRunner(t, rs, g, func(c *worker.RunnerConfig) {
			c.Workers, c.SmallWorkers, c.SmallTask = 2, 1, 10*time.Second
			c.Wakeup = wake
		}).Run)
		assert.Equal(t, large.ID, testkit.Receive(t, g.started, "the large export").ID)
		assert.Equal(t, retry.ID, testkit.Receive(t, rs.retried, "the retry's claim"))

		later := createSized(t, wake.Store(s), "hooli", 3600)
		small := createSized(t, wake.Store(s), "globex", 1)
		assert.Equal(t, small.ID, testkit.Receive(t, g.started, "the small export, while the retry waits").ID)
		testkit.WaitStatus(t, s, "globex", small.ID, exporttask.StatusCompleted)

		close(g.release)
		testkit.WaitStatus(t, s, "acme", large.ID, exporttask.StatusCompleted)
		assert.Equal(t, retry.ID, testkit.Receive(t, g.started, "the lone attempt").ID, "before any new large task")
		assert.Equal(t, later.ID, testkit.Receive(t, g.started, "the large task created meanwhile").ID)
		testkit.WaitStatus(t, s, "initech", retry.ID, exporttask.StatusCompleted)
	})
}

// progressStore signals each progress report of task id once the store
// has it.
type progressStore struct {
	retryStore
	id      int64
	reports chan int
}

func (s progressStore) Progress(ctx context.Context, id int64, worker string, p int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	got, err := s.retryStore.Progress(ctx, id, worker, p, now, lease)
	if id == s.id && err == nil {
		s.reports <- p // once stored
	}
	return got, err
}

// TestRetryWaitingToRunAloneShowsZeroProgress: a task whose first attempt
// got to 70% before its process died, claimed again while another export
// runs, is at 0% as soon as it is claimed, while it waits to run alone,
// not frozen at 70% until its attempt starts.
func TestRetryWaitingToRunAloneShowsZeroProgress(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		ctx := context.Background()
		retry := createSized(t, s, "initech", 3600)
		past := time.Now().Add(-time.Hour)
		_, ok, err := s.Claim(ctx, "dead/1", past, time.Millisecond) // its lease ended long ago
		require.NoError(t, err)
		require.True(t, ok)
		_, err = s.Progress(ctx, retry.ID, "dead/1", 70, past, time.Millisecond)
		require.NoError(t, err)
		large := createSized(t, s, "acme", 3600)

		g := newGate()
		ps := progressStore{retryStore: retryStore{Store: s, retried: make(chan int64, 4)}, id: retry.ID, reports: make(chan int, 64)}
		testkit.Background(t, testkit.FastRunner(t, ps, g, func(c *worker.RunnerConfig) {
			c.Workers, c.SmallWorkers = 2, -1
		}).Run)
		assert.Equal(t, large.ID, testkit.Receive(t, g.started, "the large export").ID)
		assert.Equal(t, retry.ID, testkit.Receive(t, ps.retried, "the retry's claim"))
		// Its reports while it waits come to 0 (before the change they
		// renewed the lease at 70 until the lone attempt started).
		for deadline := time.Now().Add(10 * time.Second); ; {
			p := testkit.Receive(t, ps.reports, "a progress report of the retry")
			if p == 0 {
				break
			}
			require.True(t, time.Now().Before(deadline), "the retry still reports %d%% while it waits to run alone", p)
		}
		got, err := s.Get(ctx, "initech", retry.ID)
		require.NoError(t, err)
		assert.Equal(t, 0, got.Progress)
		assert.Equal(t, exporttask.StatusInProgress, got.Status)
		select {
		case st := <-g.started:
			t.Fatalf("task %d started while the large export ran", st.ID)
		default:
		}
		close(g.release)
		testkit.WaitStatus(t, s, "initech", retry.ID, exporttask.StatusCompleted)
	})
}
