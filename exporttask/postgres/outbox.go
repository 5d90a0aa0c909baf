package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// ClaimDeliveries leases due webhook deliveries; see [exporttask.Store].
// Rows another transaction is claiming are skipped, not waited for.
func (db *DB) ClaimDeliveries(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]exporttask.Delivery, error) {
	ds, err := storekit.ClaimDeliveries(ctx, db.write, now, limit, lease)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim deliveries: %w", err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [exporttask.Store].
func (db *DB) DeliveryDone(ctx context.Context, id int64, r exporttask.DeliveryResult) error {
	if err := storekit.DeliveryDone(ctx, db.write, id, r); err != nil {
		return fmt.Errorf("postgres: delivery %d done: %w", id, err)
	}
	return nil
}

// InsertDeliveries writes one delivery per entry of out, in order, in one
// statement.
func (w txn) InsertDeliveries(ctx context.Context, taskID int64, ev exporttask.Event, out []storekit.Outgoing, at int64) error {
	urls := make([]string, len(out))
	payloads := make([][]byte, len(out))
	for i, o := range out {
		urls[i], payloads[i] = o.URL, o.Payload
	}
	_, err := w.tx.Exec(ctx,
		`INSERT INTO deliveries (task_id, url, event, payload, created_at, next_attempt)
		 SELECT $1, u, $3, p, $5, $5 FROM unnest($2::text[], $4::bytea[]) WITH ORDINALITY AS x (u, p, n) ORDER BY n`,
		taskID, urls, string(ev), payloads, at)
	return err
}

// DueDeliveries reads and locks the due deliveries, skipping the rows
// another transaction holds.
func (w txn) DueDeliveries(ctx context.Context, now int64, limit int) ([]exporttask.Delivery, error) {
	rows, err := w.tx.Query(ctx,
		`SELECT d.id, d.task_id, d.url, d.event, d.attempts, d.payload, d.created_at, t.customer
		 FROM deliveries d JOIN tasks t ON t.id = d.task_id
		 WHERE d.state = 0 AND d.next_attempt <= $1 AND d.lease_until < $1
		   AND NOT EXISTS (SELECT 1 FROM deliveries e
		                   WHERE e.state = 0 AND e.task_id = d.task_id AND e.url = d.url AND e.id < d.id)
		 ORDER BY d.next_attempt, d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED`, now, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (exporttask.Delivery, error) { return storekit.ScanDelivery(r) })
}

// LeaseDeliveries leases the deliveries ids until until.
func (w txn) LeaseDeliveries(ctx context.Context, ids []int64, until int64) error {
	_, err := w.tx.Exec(ctx, `UPDATE deliveries SET lease_until = $1 WHERE id = ANY($2)`, until, ids)
	return err
}

// DeliveryState reads and locks delivery id's state.
func (w txn) DeliveryState(ctx context.Context, id int64) (storekit.DeliveryState, error) {
	var state int
	err := w.tx.QueryRow(ctx, `SELECT state FROM deliveries WHERE id = $1 FOR UPDATE`, id).Scan(&state)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, exporttask.ErrNotFound
	}
	return storekit.DeliveryState(state), err
}

// RecordAttempt counts an attempt at delivery id and records o.
func (w txn) RecordAttempt(ctx context.Context, id int64, o storekit.Outcome) error {
	_, err := w.tx.Exec(ctx,
		`UPDATE deliveries SET state = $1, attempts = attempts + 1, lease_until = 0, last_error = $2,
		        next_attempt = CASE WHEN $3::bigint = 0 THEN next_attempt ELSE $3::bigint END
		 WHERE id = $4`, int(o.State), o.Error, o.NextAttempt, id)
	return err
}
