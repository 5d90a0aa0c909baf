package worker

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/clock"
)

// lane is what a worker claims: any task, or, for a worker reserved for
// small tasks, only those estimated at most RunnerConfig.SmallTask.
type lane struct {
	small bool
	wake  <-chan struct{}
}

// lanes returns the lane of each worker: Workers general ones, then
// SmallWorkers reserved for small tasks.
func (r *Runner) lanes() []lane {
	ls := make([]lane, 0, r.workers+r.smallWorkers)
	for range r.workers {
		ls = append(ls, lane{wake: r.wakeup.any})
	}
	for range r.smallWorkers {
		ls = append(ls, lane{small: true, wake: r.wakeup.small})
	}
	return ls
}

// claim takes a task of the worker's lane from the store.
func (r *Runner) claim(ctx context.Context, worker string, l lane) (exporttask.Task, bool, error) {
	if l.small {
		return r.store.ClaimSmall(ctx, worker, r.now(), r.lease, r.smallTask)
	}
	return r.store.Claim(ctx, worker, r.now(), r.lease)
}

// isSmall reports whether t is a small task: estimated to take at most
// SmallTask (in whole seconds, at least 1 s), as ClaimSmall counts it.
func (r *Runner) isSmall(t exporttask.Task) bool {
	return t.EstimatedTime <= max(1, int64(r.smallTask/time.Second))
}

// work is one worker's loop: claim a task of its lane, run it, repeat.
// With nothing to do (or when the store fails) it waits PollInterval, or
// less when the Wakeup says a task was created. A claim that got a task
// passes the wake-up on, so that a burst of tasks wakes the idle workers
// one after another.
func (r *Runner) work(ctx context.Context, worker string, l lane) {
	for ctx.Err() == nil {
		t, alone, release, err := r.claimTask(ctx, worker, l)
		switch {
		case err != nil:
			if ctx.Err() == nil {
				r.log.ErrorContext(ctx, "worker: claiming a task", "worker", worker, "error", err)
			}
		case release != nil:
			r.wakeup.Notify()
			r.runTask(ctx, worker, t, alone)
			release()
			continue
		}
		if !wait(ctx, r.clock, r.poll, l.wake) {
			return
		}
	}
}

// wait waits d on clk, or until wake delivers, or until ctx is done; it
// reports whether ctx is still live.
func wait(ctx context.Context, clk clock.Clock, d time.Duration, wake <-chan struct{}) bool {
	t := clk.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	case <-wake:
		return true
	}
}
