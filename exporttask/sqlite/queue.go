package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Claim leases the next claimable task to worker, customers taking turns;
// see [taskstore.Store] and [WithMaxRunningPerCustomer].
func (db *DB) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := storekit.Claim(ctx, db.write, worker, now, lease, db.maxRunning)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("sqlite: claim task: %w", err)
	}
	return t, ok, nil
}

// Progress records a leased task's progress; see [taskstore.Store].
func (db *DB) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	t, err := storekit.Progress(ctx, db.write, id, worker, progress, now, lease)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("sqlite: progress of task %d: %w", id, err)
	}
	return t, nil
}

// Finish ends a leased task as COMPLETED or FAILED; see [taskstore.Store].
func (db *DB) Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (exporttask.Task, error) {
	t, err := storekit.Finish(ctx, db.write, id, worker, r, now)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("sqlite: finish task %d: %w", id, err)
	}
	return t, nil
}

// Expire moves COMPLETED tasks past their expiredAt to EXPIRED; see
// [taskstore.Store].
func (db *DB) Expire(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	ids, err := storekit.Expire(ctx, db.write, now, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: expire tasks: %w", err)
	}
	return ids, nil
}

// Claimable reads the oldest claimable task of the customer whose turn it
// is, among those below maxRunning, and moves that customer to the back of
// the round; see [storekit.Tx]. Writes run one at a time, so the limit
// holds without locks.
func (w wtx) Claimable(ctx context.Context, now int64, maxRunning int) (exporttask.Task, bool, error) {
	t, err := storekit.ScanTask(w.queryRow(ctx, qClaimable, now, maxRunning))
	if errors.Is(err, sql.ErrNoRows) {
		return exporttask.Task{}, false, nil
	}
	if err != nil {
		return exporttask.Task{}, false, err
	}
	if _, err := w.exec(ctx, qTakeTurn, t.ID); err != nil {
		return exporttask.Task{}, false, fmt.Errorf("taking the customer's turn: %w", err)
	}
	return t, true, nil
}

// Expirable reads up to limit expired COMPLETED tasks. The rows are closed
// before it returns, so the transaction's next statements can run.
func (w wtx) Expirable(ctx context.Context, now int64, limit int) ([]exporttask.Task, error) {
	rows, err := w.query(ctx, qExpirable, now, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return storekit.Collect(rows, storekit.ScanTask)
}
