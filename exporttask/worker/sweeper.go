package worker

import (
	"context"
)

// sweepBatch is how many tasks one Store.Expire or Store.Purge call may
// move or remove.
const sweepBatch = 100

// sweep expires completed tasks whose retention is over and removes final
// tasks whose final retention is over: once at start, then every
// SweepInterval, until ctx is done.
func (r *Runner) sweep(ctx context.Context) {
	for {
		r.SweepOnce(ctx)
		t := r.clock.NewTimer(r.sweepInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// SweepOnce does what the sweeper does every SweepInterval, once, and
// returns when it is done: it moves the COMPLETED tasks past their
// expiredAt to EXPIRED and deletes their files, then removes the ABORTED,
// FAILED and EXPIRED tasks final for longer than FinalRetention (see
// [taskstore.Queue.Purge]) and deletes whatever files they have left.
// Store failures are logged; the next sweep tries again.
func (r *Runner) SweepOnce(ctx context.Context) {
	r.expireDue(ctx)
	r.purgeDue(ctx)
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
				r.log.ErrorContext(ctx, "worker: expiring tasks", "error", err)
			}
			return
		}
		for _, id := range ids {
			r.deleteArtifacts(ctx, r.log.With("task", id), id)
		}
		if len(ids) > 0 {
			r.log.InfoContext(ctx, "worker: tasks expired", "count", len(ids))
		}
		if len(ids) < sweepBatch {
			return
		}
	}
}

// purgeDue calls Store.Purge in batches until no final task past its
// final retention is left, and deletes the files the removed tasks may
// still have (an aborted export's, say). A failure is logged; the next
// sweep tries again.
func (r *Runner) purgeDue(ctx context.Context) {
	for ctx.Err() == nil {
		ids, err := r.store.Purge(ctx, r.now().Add(-r.finalRetain), sweepBatch)
		for _, id := range ids {
			r.deleteArtifacts(ctx, r.log.With("task", id), id)
		}
		if len(ids) > 0 {
			r.log.InfoContext(ctx, "worker: final tasks removed", "count", len(ids))
		}
		if err != nil {
			if ctx.Err() == nil {
				r.log.ErrorContext(ctx, "worker: removing final tasks", "error", err)
			}
			return
		}
		if len(ids) < sweepBatch {
			return
		}
	}
}
