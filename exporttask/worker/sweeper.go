package worker

import (
	"context"
	"time"
)

// sweepBatch is how many tasks one Store.Expire call may move.
const sweepBatch = 100

// sweep expires completed tasks whose retention is over: once at start, then
// every SweepInterval, until ctx is done.
func (r *Runner) sweep(ctx context.Context) {
	tick := time.NewTicker(r.sweepInterval)
	defer tick.Stop()
	for {
		r.expireDue(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// expireDue calls Store.Expire in batches until no due task is left. A store
// failure is logged; the next sweep tries again.
func (r *Runner) expireDue(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := r.store.Expire(ctx, r.now(), sweepBatch)
		if err != nil {
			if ctx.Err() == nil {
				r.log.ErrorContext(ctx, "exporttask: expiring tasks", "error", err)
			}
			return
		}
		if n > 0 {
			r.log.InfoContext(ctx, "exporttask: tasks expired", "count", n)
		}
		if n < sweepBatch {
			return
		}
	}
}
