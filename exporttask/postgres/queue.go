package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Claim leases the oldest claimable task to worker; see [exporttask.Store].
// Rows another transaction is claiming are skipped, not waited for.
func (db *DB) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	var (
		t  exporttask.Task
		ok bool
	)
	err := db.write(ctx, func(tx pgx.Tx) error {
		var err error
		ok = false
		t, err = scanTask(tx.QueryRow(ctx,
			`SELECT id, doc FROM tasks
			 WHERE status IN ('PENDING', 'IN_PROGRESS') AND (status = 'PENDING' OR lease_until < $1)
			 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`, millis(now)))
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		until := millis(now.Add(lease))
		if t.Status == exporttask.StatusInProgress {
			// Its worker's lease ended: take it over, no status change.
			if _, err := tx.Exec(ctx,
				`UPDATE tasks SET lease_owner = $1, lease_until = $2 WHERE id = $3`, worker, until, t.ID); err != nil {
				return err
			}
			ok = true
			return nil
		}
		ev, err := exporttask.Transition(t.Status, exporttask.StatusInProgress)
		if err != nil {
			return err
		}
		before := t.Status
		t.Status = exporttask.StatusInProgress
		if t, err = saveTask(ctx, tx, before, t, worker, until); err != nil {
			return err
		}
		ok = true
		return emit(ctx, tx, t, ev, now)
	})
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("postgres: claim task: %w", err)
	}
	return t, ok, nil
}

// Progress records a leased task's progress; see [exporttask.Store].
func (db *DB) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	if progress < 0 || progress > 100 {
		return exporttask.Task{}, fmt.Errorf("postgres: progress of task %d: %d is outside 0..100", id, progress)
	}
	var t exporttask.Task
	err := db.write(ctx, func(tx pgx.Tx) error {
		l, err := holding(ctx, tx, id, worker)
		if err != nil {
			return err
		}
		t = l.task
		changed := t.Progress != progress
		t.Progress = progress
		if t, err = saveTask(ctx, tx, t.Status, t, worker, millis(now.Add(lease))); err != nil {
			return err
		}
		if changed {
			return emit(ctx, tx, t, exporttask.EventInProgress, now)
		}
		return nil
	})
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: progress of task %d: %w", id, err)
	}
	return t, nil
}

// Finish ends a leased task as COMPLETED or FAILED; see [exporttask.Store].
func (db *DB) Finish(ctx context.Context, id int64, worker string, r exporttask.FinishParams, now time.Time) (exporttask.Task, error) {
	var t exporttask.Task
	err := db.write(ctx, func(tx pgx.Tx) error {
		l, err := holding(ctx, tx, id, worker)
		if err != nil {
			return err
		}
		to := exporttask.StatusCompleted
		if r.ErrorReason != "" {
			to = exporttask.StatusFailed
		}
		t, err = moveTo(ctx, tx, l.task, to, now, func(t *exporttask.Task) {
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
		return exporttask.Task{}, fmt.Errorf("postgres: finish task %d: %w", id, err)
	}
	return t, nil
}

// holding reads and locks task id in tx and checks that worker holds its
// lease: ErrLeaseLost when the task is not IN_PROGRESS under that worker.
func holding(ctx context.Context, tx pgx.Tx, id int64, worker string) (leased, error) {
	l, err := leasedTask(ctx, tx, id)
	if err != nil {
		return leased{}, err
	}
	if l.task.Status != exporttask.StatusInProgress || l.leaseOwner != worker {
		return leased{}, exporttask.ErrLeaseLost
	}
	return l, nil
}

// Expire moves COMPLETED tasks past their expiredAt to EXPIRED; see
// [exporttask.Store]. Tasks another transaction holds are left for the
// next sweep.
func (db *DB) Expire(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	n := 0
	err := db.write(ctx, func(tx pgx.Tx) error {
		n = 0
		rows, err := tx.Query(ctx,
			`SELECT id, doc FROM tasks WHERE status = 'COMPLETED' AND expired_at <= $1
			 ORDER BY expired_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, millis(now), limit)
		if err != nil {
			return err
		}
		due, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (exporttask.Task, error) { return scanTask(r) })
		if err != nil {
			return err
		}
		for _, t := range due {
			_, err := moveTo(ctx, tx, t, exporttask.StatusExpired, now, func(t *exporttask.Task) {
				for i := range t.Artifacts {
					t.Artifacts[i].URL = ""
				}
			})
			if err != nil {
				return err
			}
		}
		n = len(due)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: expire tasks: %w", err)
	}
	return n, nil
}
