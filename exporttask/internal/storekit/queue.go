package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Claim carries out [taskstore.Queue.Claim] in one transaction of write:
// the next claimable task ([Tx.Claimable] with maxRunning, the most tasks
// of one customer running at once, 0 for no limit; maxTime, when
// positive, the most estimated seconds of a task it takes) is leased to
// worker until now+lease, moving
// from PENDING to IN_PROGRESS (emitting TASK_STARTED) or, when its
// worker's lease ended, taken over as it is; either way its Attempts
// counter goes up by one.
func Claim(ctx context.Context, write Write, worker string, now time.Time, lease time.Duration, maxRunning int, maxTime int64) (t exporttask.Task, ok bool, err error) {
	err = write(ctx, func(tx Tx) error {
		var err error
		t, ok, err = claim(ctx, tx, now, Lease{Owner: worker, Until: Millis(now.Add(lease))}, maxRunning, maxTime)
		return err
	})
	if err != nil {
		return exporttask.Task{}, false, err
	}
	return t, ok, nil
}

func claim(ctx context.Context, tx Tx, now time.Time, l Lease, maxRunning int, maxTime int64) (exporttask.Task, bool, error) {
	t, ok, err := tx.Claimable(ctx, Millis(now), maxRunning, maxTime)
	if err != nil || !ok {
		return exporttask.Task{}, false, err
	}
	t.Attempts++
	if t.Status == exporttask.StatusInProgress {
		// Its worker's lease ended (or it gave the task back to retry it):
		// take it over, no status change.
		t, err = SaveTask(ctx, tx, t.Status, t, l)
		if err != nil {
			return exporttask.Task{}, false, err
		}
		return t, true, nil
	}
	ev, err := exporttask.Transition(t.Status, exporttask.StatusInProgress)
	if err != nil {
		return exporttask.Task{}, false, err
	}
	before := t.Status
	t.Status = exporttask.StatusInProgress
	if t, err = SaveTask(ctx, tx, before, t, l); err != nil {
		return exporttask.Task{}, false, err
	}
	return t, true, Emit(ctx, tx, t, ev, now)
}

// Progress carries out [taskstore.Queue.Progress] in one transaction of
// write: it records progress of a task leased to worker, extends the lease
// to now+lease and emits TASK_IN_PROGRESS when progress changed.
func Progress(ctx context.Context, write Write, id int64, worker string, progress int, now time.Time, lease time.Duration) (t exporttask.Task, err error) {
	if progress < 0 || progress > 100 {
		return exporttask.Task{}, fmt.Errorf("%d is outside 0..100", progress)
	}
	err = write(ctx, func(tx Tx) error {
		l, err := holding(ctx, tx, id, worker)
		if err != nil {
			return err
		}
		t = l.Task
		changed := t.Progress != progress
		t.Progress = progress
		if t, err = SaveTask(ctx, tx, t.Status, t, Lease{Owner: worker, Until: Millis(now.Add(lease))}); err != nil {
			return err
		}
		if changed {
			return Emit(ctx, tx, t, exporttask.EventInProgress, now)
		}
		return nil
	})
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, nil
}

// ReleaseForRetry carries out [taskstore.Queue.ReleaseForRetry] in one
// transaction of write: a task leased to worker keeps its status, progress
// and lease owner, and its lease ends at now+delay, so that the next Claim
// after that takes it again. It emits nothing. A negative delay is an
// error.
func ReleaseForRetry(ctx context.Context, write Write, id int64, worker string, now time.Time, delay time.Duration) (t exporttask.Task, err error) {
	if delay < 0 {
		return exporttask.Task{}, fmt.Errorf("the retry delay %s is negative", delay)
	}
	err = write(ctx, func(tx Tx) error {
		l, err := holding(ctx, tx, id, worker)
		if err != nil {
			return err
		}
		t, err = SaveTask(ctx, tx, l.Task.Status, l.Task, Lease{Owner: worker, Until: Millis(now.Add(delay))})
		return err
	})
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, nil
}

// Finish carries out [taskstore.Queue.Finish] in one transaction of
// write: a task leased to worker becomes COMPLETED (with r.Artifacts,
// progress 100 and an expiry r.Retention after now) or, with
// r.ErrorReason, FAILED; it is finished at now and its lease released.
func Finish(ctx context.Context, write Write, id int64, worker string, r taskstore.FinishParams, now time.Time) (t exporttask.Task, err error) {
	err = write(ctx, func(tx Tx) error {
		l, err := holding(ctx, tx, id, worker)
		if err != nil {
			return err
		}
		to := exporttask.StatusCompleted
		if r.ErrorReason != "" {
			to = exporttask.StatusFailed
		}
		t, err = MoveTo(ctx, tx, l.Task, to, now, func(t *exporttask.Task) {
			t.FinishedAt = exporttask.NewTime(now)
			if to == exporttask.StatusFailed {
				t.ErrorReason = r.ErrorReason
				return
			}
			t.Artifacts = append([]exporttask.Artifact{}, r.Artifacts...)
			t.Progress = 100
			t.ExpiredAt = exporttask.NewTime(now.Add(r.Retention))
		})
		return err
	})
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, nil
}

// holding reads task id in tx and checks that worker holds its lease:
// exporttask.ErrLeaseLost when the task is not IN_PROGRESS under that
// worker.
func holding(ctx context.Context, tx Tx, id int64, worker string) (Leased, error) {
	l, err := tx.LeasedTask(ctx, id)
	if err != nil {
		return Leased{}, err
	}
	if l.Task.Status != exporttask.StatusInProgress || l.Lease.Owner != worker {
		return Leased{}, exporttask.ErrLeaseLost
	}
	return l, nil
}

// Expire carries out [taskstore.Queue.Expire] in one transaction of
// write: up to limit COMPLETED tasks past their expiry move to EXPIRED,
// their artifacts' URLs removed. It returns the ids of those moved.
func Expire(ctx context.Context, write Write, now time.Time, limit int) (ids []int64, err error) {
	if limit <= 0 {
		return nil, nil
	}
	err = write(ctx, func(tx Tx) error {
		ids = nil
		due, err := tx.Expirable(ctx, Millis(now), limit)
		if err != nil {
			return err
		}
		for _, t := range due {
			_, err := MoveTo(ctx, tx, t, exporttask.StatusExpired, now, func(t *exporttask.Task) {
				for i := range t.Artifacts {
					t.Artifacts[i].URL = ""
				}
			})
			if err != nil {
				return err
			}
			ids = append(ids, t.ID)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}
