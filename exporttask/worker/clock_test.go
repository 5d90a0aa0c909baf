package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// renewStore sends the time of every Progress call on renewed.
type renewStore struct {
	taskstore.Store
	renewed chan time.Time
}

func (s *renewStore) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	s.renewed <- now
	return s.Store.Progress(ctx, id, worker, progress, now, lease)
}

// clockRunner runs one worker (no small-task worker) on clk, with a lease
// and a stop grace that real time would take an hour to reach.
func clockRunner(t *testing.T, s taskstore.Store, e export.Exporter, clk clock.Clock) {
	t.Helper()
	testkit.Background(t, testkit.FastRunner(t, s, e, func(c *worker.RunnerConfig) {
		c.Workers, c.SmallWorkers = 1, -1
		c.Lease, c.StopGrace = time.Hour, time.Hour
		c.PollInterval, c.SweepInterval = time.Hour, time.Hour
		c.Clock = clk
	}).Run)
}

// TestLeaseRenewedOnTheClocksTick: a running export's lease is renewed
// when the Runner's clock reaches Lease/3, and not before; then again
// Lease/3 later. No real time passes: before, the renewal ran on a real
// ticker, and this test waited for it in vain.
func TestLeaseRenewedOnTheClocksTick(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		start := time.Now()
		clk := clock.NewManual(start)
		ps := &renewStore{Store: s, renewed: make(chan time.Time, 8)}
		e := &stuckRead{next: simulate.New(simulate.Config{}), honourCtx: true,
			started: make(chan struct{}), release: make(chan struct{})}
		t.Cleanup(func() { close(e.release) })
		testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		clockRunner(t, ps, e, clk)
		testkit.Receive(t, e.started, "the export to start")

		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for i := 1; i <= 2; i++ {
			// The sweeper's timer and the renewal's: the worker waits.
			require.NoError(t, clk.WaitTimers(ctx, 2))
			require.Empty(t, ps.renewed, "no renewal before the clock reaches Lease/3")
			clk.Advance(time.Hour/3 - time.Millisecond)
			require.NoError(t, clk.WaitTimers(ctx, 2))
			require.Empty(t, ps.renewed, "no renewal a millisecond before Lease/3")
			clk.Advance(time.Millisecond)
			select {
			case at := <-ps.renewed:
				assert.Equal(t, start.Add(time.Duration(i)*time.Hour/3), at, "renewal %d at the clock's time", i)
			case <-ctx.Done():
				t.Fatalf("renewal %d never came", i)
			}
		}
	})
}

// TestStuckExportLeftAfterTheGraceOnTheClock: an aborted task whose export
// ignores its cancellation holds its worker until the Runner's clock has
// gone StopGrace past the cancellation, not before: the only worker then
// runs another customer's task. Before, the grace ran on a real timer.
func TestStuckExportLeftAfterTheGraceOnTheClock(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		clk := clock.NewManual(time.Now())
		ps := &renewStore{Store: s, renewed: make(chan time.Time, 8)}
		e := &stuckRead{next: simulate.New(simulate.Config{Duration: time.Millisecond, Steps: 1}), honourCtx: false,
			started: make(chan struct{}), release: make(chan struct{})}
		t.Cleanup(func() { close(e.release) })
		stuck := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		clockRunner(t, ps, e, clk)
		testkit.Receive(t, e.started, "the stuck export to start")
		other := testkit.CreateTask(t, s, "another-customer", exporttask.DomainRaster, "")
		_, err := s.Abort(ctx, customer, stuck.ID, clk.Now())
		require.NoError(t, err)

		// The next renewal finds the task aborted and cancels the export,
		// which ignores it: the worker arms the grace timer.
		require.NoError(t, clk.WaitTimers(ctx, 2))
		clk.Advance(time.Hour / 3)
		select {
		case <-ps.renewed:
		case <-ctx.Done():
			t.Fatal("the renewal never came")
		}
		require.NoError(t, clk.WaitTimers(ctx, 2)) // the sweeper's and the grace's
		clk.Advance(time.Hour - time.Millisecond)
		require.NoError(t, clk.WaitTimers(ctx, 2))
		got, err := s.Get(ctx, "another-customer", other.ID)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusPending, got.Status, "the worker is held until the grace is over")

		clk.Advance(time.Millisecond)
		done := testkit.WaitStatus(t, s, "another-customer", other.ID, exporttask.StatusCompleted)
		assert.Equal(t, 1, done.Attempts)
	})
}
