package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// txn is a write transaction: the [storekit.Tx] of this store. Its reads
// lock the rows they return (FOR UPDATE) until the transaction ends.
type txn struct {
	tx pgx.Tx
}

var _ storekit.Tx = txn{}

// CustomerTask reads and locks the customer's task id; ErrNotFound when
// there is none.
func (w txn) CustomerTask(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	return storekit.ScanFound(w.tx.QueryRow(ctx,
		`SELECT id, doc FROM tasks WHERE id = $1 AND customer = $2 FOR UPDATE`, id, customer), pgx.ErrNoRows)
}

// LeasedTask reads and locks task id and its lease; ErrNotFound when there
// is none.
func (w txn) LeasedTask(ctx context.Context, id int64) (storekit.Leased, error) {
	var (
		l   storekit.Leased
		doc []byte
	)
	err := w.tx.QueryRow(ctx,
		`SELECT doc, lease_owner, lease_until FROM tasks WHERE id = $1 FOR UPDATE`, id).Scan(&doc, &l.Lease.Owner, &l.Lease.Until)
	if errors.Is(err, pgx.ErrNoRows) {
		return storekit.Leased{}, taskstore.ErrNotFound
	}
	if err != nil {
		return storekit.Leased{}, err
	}
	l.Task, err = storekit.DecodeTask(id, doc)
	return l, err
}

// UpdateTask writes t's row and returns its customer.
func (w txn) UpdateTask(ctx context.Context, t exporttask.Task, doc []byte, l storekit.Lease) (string, error) {
	var customer string
	err := w.tx.QueryRow(ctx,
		`UPDATE tasks SET status = $1, expired_at = $2, lease_owner = $3, lease_until = $4, doc = $5, final_at = $6
		 WHERE id = $7 RETURNING customer`,
		string(t.Status), storekit.Millis(t.ExpiredAt.Time), l.Owner, l.Until, string(doc), storekit.FinalAt(t), t.ID).Scan(&customer)
	return customer, err
}

// DeleteTask deletes task id, its deliveries and the keys that name it,
// in one round trip, and returns its document bytes.
func (w txn) DeleteTask(ctx context.Context, id int64) (int64, error) {
	var docBytes int64
	err := w.tx.QueryRow(ctx,
		`WITH d AS (DELETE FROM deliveries WHERE task_id = $1),
		      k AS (DELETE FROM idempotency_keys WHERE task_id = $1)
		 DELETE FROM tasks WHERE id = $1 RETURNING doc_bytes`, id).Scan(&docBytes)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, taskstore.ErrNotFound
	}
	return docBytes, err
}

// Purgeable reads and locks up to limit final tasks to remove, oldest
// first, skipping the rows another transaction holds.
func (w txn) Purgeable(ctx context.Context, before int64, limit int) ([]storekit.Final, error) {
	rows, err := w.tx.Query(ctx,
		`SELECT id, customer FROM tasks
		 WHERE status IN ('ABORTED', 'FAILED', 'EXPIRED') AND final_at <= $1
		 ORDER BY final_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, before, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (storekit.Final, error) {
		var f storekit.Final
		err := r.Scan(&f.ID, &f.Customer)
		return f, err
	})
}

// AddUsage appends delta bytes to the customer's usage ledger (it waits
// for no other transaction).
func (w txn) AddUsage(ctx context.Context, customer string, delta int64) error {
	if delta == 0 {
		return nil
	}
	_, err := w.tx.Exec(ctx, `INSERT INTO usage_changes (customer, bytes) VALUES ($1, $2)`, customer, delta)
	if err != nil {
		return fmt.Errorf("updating storage usage: %w", err)
	}
	return nil
}
