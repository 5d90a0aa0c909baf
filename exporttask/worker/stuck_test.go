package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// stuckRead exports DEM tasks by a read that never delivers: with
// honourCtx it returns when its context ends (a read through a
// context-aware reader), else only when release is closed (a read that
// ignores cancellation, like one from a FIFO). Other tasks it exports
// with next.
type stuckRead struct {
	next      export.Exporter
	honourCtx bool
	started   chan struct{}
	release   chan struct{}
}

func (e *stuckRead) Estimate(ctx context.Context, r exporttask.CreateRequest) (export.Estimate, error) {
	return e.next.Estimate(ctx, r)
}

func (e *stuckRead) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	if t.Domain != exporttask.DomainDEM {
		return e.next.Export(ctx, t, out)
	}
	close(e.started)
	if e.honourCtx {
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-e.release:
		}
	}
	<-e.release
	return nil, nil
}

// TestDeleteOfAStuckReadFreesTheWorker: DELETE of a task whose export is
// stuck in a read ends it within seconds and frees the worker: the only
// worker then runs another customer's task. Before, a read that ignored
// its context held the worker for as long as it lasted.
func TestDeleteOfAStuckReadFreesTheWorker(t *testing.T) {
	for _, honour := range []bool{true, false} {
		name := map[bool]string{true: "reader honours the context", false: "reader ignores the context"}[honour]
		t.Run(name, func(t *testing.T) {
			testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
				e := &stuckRead{next: simulate.New(simulate.Config{Duration: 20 * time.Millisecond, Steps: 1}),
					honourCtx: honour, started: make(chan struct{}), release: make(chan struct{})}
				t.Cleanup(func() { close(e.release) })
				stuck := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
				testkit.Background(t, testkit.FastRunner(t, s, e, func(c *worker.RunnerConfig) {
					c.Workers = 1
					c.Lease = 300 * time.Millisecond // the abort is seen at the next renewal, 100ms on
					c.StopGrace = 200 * time.Millisecond
				}).Run)
				testkit.Receive(t, e.started, "the stuck export to start")
				other := testkit.CreateTask(t, s, "another-customer", exporttask.DomainRaster, "")
				deleted := time.Now()
				_, err := s.Abort(context.Background(), customer, stuck.ID, deleted)
				require.NoError(t, err)
				got := testkit.WaitStatus(t, s, "another-customer", other.ID, exporttask.StatusCompleted)
				assert.Less(t, time.Since(deleted), 3*time.Second, "the worker was freed within seconds")
				assert.Equal(t, 1, got.Attempts)
				aborted, err := s.Get(context.Background(), customer, stuck.ID)
				require.NoError(t, err)
				assert.Equal(t, exporttask.StatusAborted, aborted.Status)
			})
		})
	}
}
