package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
)

// leased is a task with its lease, as a write transaction reads it.
type leased struct {
	task       exporttask.Task
	leaseOwner string
	leaseUntil int64
}

// scanTask reads a row of (id, doc).
func scanTask(row pgx.Row) (exporttask.Task, error) {
	var (
		id  int64
		doc []byte
	)
	if err := row.Scan(&id, &doc); err != nil {
		return exporttask.Task{}, err
	}
	return decodeTask(id, doc)
}

// customerTask reads and locks the customer's task id in tx; ErrNotFound
// when there is none.
func customerTask(ctx context.Context, tx pgx.Tx, customer string, id int64) (exporttask.Task, error) {
	t, err := scanTask(tx.QueryRow(ctx,
		`SELECT id, doc FROM tasks WHERE id = $1 AND customer = $2 FOR UPDATE`, id, customer))
	if errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, exporttask.ErrNotFound
	}
	return t, err
}

// leasedTask reads and locks task id and its lease in tx; ErrNotFound when
// there is none.
func leasedTask(ctx context.Context, tx pgx.Tx, id int64) (leased, error) {
	var (
		l   leased
		doc []byte
	)
	err := tx.QueryRow(ctx,
		`SELECT doc, lease_owner, lease_until FROM tasks WHERE id = $1 FOR UPDATE`, id).Scan(&doc, &l.leaseOwner, &l.leaseUntil)
	if errors.Is(err, pgx.ErrNoRows) {
		return leased{}, exporttask.ErrNotFound
	}
	if err != nil {
		return leased{}, err
	}
	l.task, err = decodeTask(id, doc)
	return l, err
}

// saveTask writes t, which was in status before, with the given lease, and
// keeps the customer's storage usage in step when t's status moved into or
// out of the statuses that count against the quota. It returns t as stored.
func saveTask(ctx context.Context, tx pgx.Tx, before exporttask.Status, t exporttask.Task, leaseOwner string, leaseUntil int64) (exporttask.Task, error) {
	doc, err := encodeTask(t)
	if err != nil {
		return exporttask.Task{}, err
	}
	var customer string
	err = tx.QueryRow(ctx,
		`UPDATE tasks SET status = $1, expired_at = $2, lease_owner = $3, lease_until = $4, doc = $5
		 WHERE id = $6 RETURNING customer`,
		string(t.Status), millis(t.ExpiredAt.Time), leaseOwner, leaseUntil, string(doc), t.ID).Scan(&customer)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("updating task %d: %w", t.ID, err)
	}
	if was, is := live(before), live(t.Status); was != is {
		delta := t.EstimatedSize
		if was {
			delta = -delta
		}
		if err := addUsage(ctx, tx, customer, delta); err != nil {
			return exporttask.Task{}, err
		}
	}
	return decodeTask(t.ID, doc)
}

// addUsage adds delta bytes to the customer's storage in use.
func addUsage(ctx context.Context, tx pgx.Tx, customer string, delta int64) error {
	if delta == 0 {
		return nil
	}
	_, err := tx.Exec(ctx,
		`INSERT INTO customer_usage (customer, used_bytes) VALUES ($1, $2)
		 ON CONFLICT (customer) DO UPDATE SET used_bytes = customer_usage.used_bytes + excluded.used_bytes`,
		customer, delta)
	if err != nil {
		return fmt.Errorf("updating storage usage: %w", err)
	}
	return nil
}
