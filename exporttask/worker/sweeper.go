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

// expireDue calls Store.Expire in batches until no due task is left, and
// deletes the expired tasks' files from the artifact store. A store failure
// is logged; the next sweep tries again. A failed deletion is logged too:
// the task is EXPIRED and its download answers 410 whatever is left.
func (r *Runner) expireDue(ctx context.Context) {
	for ctx.Err() == nil {
		ids, err := r.store.Expire(ctx, r.now(), sweepBatch)
		if err != nil {
			if ctx.Err() == nil {
				r.log.ErrorContext(ctx, "exporttask: expiring tasks", "error", err)
			}
			return
		}
		for _, id := range ids {
			r.deleteArtifacts(ctx, r.log.With("task", id), id)
		}
		if len(ids) > 0 {
			r.log.InfoContext(ctx, "exporttask: tasks expired", "count", len(ids))
		}
		if len(ids) < sweepBatch {
			return
		}
	}
}
