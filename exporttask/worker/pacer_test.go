package worker_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// pacedExporter: the first large export takes a turn at CPU work and
// holds it until the test ends; a small export runs until the test lets
// it return; the second large export says, once it has its turn, whether
// the small one had returned by then.
type pacedExporter struct {
	large        atomic.Int32
	held         chan struct{} // the first large export holds its turn
	hold         chan struct{} // closed at the end of the test
	smallRunning chan struct{}
	smallGo      chan struct{}
	smallDone    atomic.Bool
	asking       chan struct{} // the second large export is about to ask for a turn
	secondTurn   chan bool     // the second large export's turn: smallDone then
}

func (e *pacedExporter) Estimate(context.Context, exporttask.CreateRequest) (export.Estimate, error) {
	return export.Estimate{Size: 1, Time: 1}, nil
}

func (e *pacedExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	if t.EstimatedTime <= 1 { // small: no turns to wait for
		done, err := export.Pace(ctx)
		if err != nil {
			return nil, err
		}
		done()
		e.smallRunning <- struct{}{}
		<-e.smallGo
		e.smallDone.Store(true)
		return nil, nil
	}
	n := e.large.Add(1)
	if n == 2 {
		e.asking <- struct{}{}
	}
	done, err := export.Pace(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if n == 1 {
		e.held <- struct{}{}
		select {
		case <-e.hold:
		case <-ctx.Done():
		}
		return nil, nil
	}
	e.secondTurn <- e.smallDone.Load()
	return nil, nil
}

// TestLargeExportsYieldWhileASmallOneRuns: with LargeTurns 1, while a
// small export runs and one large export holds a turn at CPU work, another
// large export's next chunk waits until the small export has ended (the
// clock plays no part: the order is the signals'); the small export does
// not wait for a turn at all.
func TestLargeExportsYieldWhileASmallOneRuns(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		e := &pacedExporter{held: make(chan struct{}, 1), hold: make(chan struct{}), smallRunning: make(chan struct{}, 1),
			smallGo: make(chan struct{}), asking: make(chan struct{}), secondTurn: make(chan bool, 1)}
		defer close(e.hold)
		wake := worker.NewWakeup()
		testkit.Background(t, testkit.FastRunner(t, s, e, func(c *worker.RunnerConfig) {
			c.Workers, c.SmallWorkers, c.SmallTask, c.LargeTurns = 3, 1, 10*time.Second, 1
			c.PollInterval = time.Hour // only the Wakeup starts work
			c.Wakeup = wake
		}).Run)
		createSized(t, wake.Store(s), "acme", 3600)
		testkit.Receive(t, e.held, "the first large export's turn")
		small := createSized(t, wake.Store(s), "globex", 1)
		testkit.Receive(t, e.smallRunning, "the small export")
		createSized(t, wake.Store(s), "acme", 3601)
		testkit.Receive(t, e.asking, "the second large export")
		close(e.smallGo)
		assert.True(t, testkit.Receive(t, e.secondTurn, "the second large export's turn"),
			"the second large export had a turn at CPU work while the small export ran")
		testkit.WaitStatus(t, s, "globex", small.ID, exporttask.StatusCompleted)
	})
}
