package worker

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Wakeup tells the idle workers of the Runners that share it that a task
// may be claimable, so that work starts as soon as a task is created,
// without waiting for the next poll. Give the same Wakeup to the Runner
// (RunnerConfig.Wakeup) and, through [Wakeup.Store], to whatever creates
// the tasks in this process (the HTTP server). It reaches only the workers
// of this process: the Runners of other processes sharing a PostgreSQL
// store find a task created here at their next poll
// (RunnerConfig.PollInterval). A Wakeup is safe for concurrent use.
type Wakeup struct {
	// any wakes the workers that take tasks of any size, small those
	// reserved for small tasks: a created task wakes one of each, so a
	// small worker that is woken for a large task cannot hold the wake-up
	// a general worker needs.
	any, small chan struct{}
}

// wakeupBuffer is how many wake-ups of each kind wait for an idle worker:
// enough for a burst of creates to wake that many workers at once.
const wakeupBuffer = 64

// NewWakeup returns a Wakeup that no worker waits on yet.
func NewWakeup() *Wakeup {
	return &Wakeup{any: make(chan struct{}, wakeupBuffer), small: make(chan struct{}, wakeupBuffer)}
}

// Notify wakes an idle worker of each kind, or, when none is idle, the
// next one that becomes so. It never blocks.
func (w *Wakeup) Notify() {
	for _, ch := range []chan struct{}{w.any, w.small} {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Store returns st with a Create that calls Notify after it stored a new
// task (not when it replayed an existing one).
func (w *Wakeup) Store(st taskstore.Store) taskstore.Store {
	return wakingStore{Store: st, w: w}
}

// wakingStore is a taskstore.Store whose Create notifies a Wakeup.
type wakingStore struct {
	taskstore.Store
	w *Wakeup
}

// Create stores the task and, when it is new, wakes the workers.
func (s wakingStore) Create(ctx context.Context, p taskstore.CreateParams) (exporttask.Task, bool, error) {
	t, replayed, err := s.Store.Create(ctx, p)
	if err == nil && !replayed {
		s.w.Notify()
	}
	return t, replayed, err
}
