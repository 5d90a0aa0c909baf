package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Claim leases the next claimable task to worker, customers taking turns;
// see [taskstore.Store] and [WithMaxRunningPerCustomer]. Tasks another
// transaction is claiming are skipped, not waited for.
func (db *DB) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := storekit.Claim(ctx, db.write, worker, now, lease, db.maxRunning)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("postgres: claim task: %w", err)
	}
	return t, ok, nil
}

// Progress records a leased task's progress; see [taskstore.Store].
func (db *DB) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	t, err := storekit.Progress(ctx, db.write, id, worker, progress, now, lease)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: progress of task %d: %w", id, err)
	}
	return t, nil
}

// Finish ends a leased task as COMPLETED or FAILED; see [taskstore.Store].
func (db *DB) Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (exporttask.Task, error) {
	t, err := storekit.Finish(ctx, db.write, id, worker, r, now)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: finish task %d: %w", id, err)
	}
	return t, nil
}

// Expire moves COMPLETED tasks past their expiredAt to EXPIRED; see
// [taskstore.Store]. Tasks another transaction holds are left for the
// next sweep.
func (db *DB) Expire(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	ids, err := storekit.Expire(ctx, db.write, now, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: expire tasks: %w", err)
	}
	return ids, nil
}

// Expirable reads and locks up to limit expired COMPLETED tasks, skipping
// the rows another transaction holds.
func (w txn) Expirable(ctx context.Context, now int64, limit int) ([]exporttask.Task, error) {
	rows, err := w.tx.Query(ctx,
		`SELECT id, doc FROM tasks WHERE status = 'COMPLETED' AND expired_at <= $1
		 ORDER BY expired_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (exporttask.Task, error) { return storekit.ScanTask(r) })
}
