package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Delivery states in the deliveries table.
const (
	deliveryPending   = 0
	deliveryDelivered = 1
	deliveryGivenUp   = 2
)

// emit writes event ev of task t, happening at now, to the outbox: one
// delivery per URL subscribed to ev, due at once.
func emit(ctx context.Context, tx pgx.Tx, t exporttask.Task, ev exporttask.Event, now time.Time) error {
	urls := exporttask.Subscribers(t, ev)
	if len(urls) == 0 {
		return nil
	}
	payload, err := exporttask.MarshalEvent(ev, t, now)
	if err != nil {
		return err
	}
	at := millis(now)
	_, err = tx.Exec(ctx,
		`INSERT INTO deliveries (task_id, url, event, payload, created_at, next_attempt)
		 SELECT $1, u, $3, $4, $5, $5 FROM unnest($2::text[]) WITH ORDINALITY AS x (u, n) ORDER BY n`,
		t.ID, urls, string(ev), payload, at)
	if err != nil {
		return fmt.Errorf("writing %s event to the outbox: %w", ev, err)
	}
	return nil
}

// ClaimDeliveries leases due webhook deliveries; see [exporttask.Store].
// Rows another transaction is claiming are skipped, not waited for.
func (db *DB) ClaimDeliveries(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]exporttask.Delivery, error) {
	if limit <= 0 {
		return nil, nil
	}
	var ds []exporttask.Delivery
	err := db.write(ctx, func(tx pgx.Tx) error {
		at := millis(now)
		rows, err := tx.Query(ctx,
			`SELECT d.id, d.task_id, d.url, d.event, d.attempts, d.payload, d.created_at FROM deliveries d
			 WHERE d.state = 0 AND d.next_attempt <= $1 AND d.lease_until < $1
			   AND NOT EXISTS (SELECT 1 FROM deliveries e
			                   WHERE e.state = 0 AND e.task_id = d.task_id AND e.url = d.url AND e.id < d.id)
			 ORDER BY d.next_attempt, d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED`, at, limit)
		if err != nil {
			return err
		}
		ds, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (exporttask.Delivery, error) {
			var (
				d       exporttask.Delivery
				created int64
			)
			err := r.Scan(&d.ID, &d.TaskID, &d.URL, &d.Event, &d.Attempts, &d.Payload, &created)
			d.CreatedAt = time.UnixMilli(created).UTC()
			return d, err
		})
		if err != nil {
			return err
		}
		ids := make([]int64, len(ds))
		for i, d := range ds {
			ids[i] = d.ID
		}
		_, err = tx.Exec(ctx, `UPDATE deliveries SET lease_until = $1 WHERE id = ANY($2)`, millis(now.Add(lease)), ids)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: claim deliveries: %w", err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [exporttask.Store].
func (db *DB) DeliveryDone(ctx context.Context, id int64, r exporttask.DeliveryResult) error {
	err := db.write(ctx, func(tx pgx.Tx) error {
		var state int
		err := tx.QueryRow(ctx, `SELECT state FROM deliveries WHERE id = $1 FOR UPDATE`, id).Scan(&state)
		if errors.Is(err, pgx.ErrNoRows) {
			return exporttask.ErrNotFound
		}
		if err != nil {
			return err
		}
		if state != deliveryPending {
			return fmt.Errorf("%w: the delivery is already over", exporttask.ErrConflict)
		}
		next, newState := int64(0), deliveryPending
		switch {
		case r.Delivered:
			newState = deliveryDelivered
		case r.NextAttempt.IsZero():
			newState = deliveryGivenUp
		default:
			next = millis(r.NextAttempt)
		}
		_, err = tx.Exec(ctx,
			`UPDATE deliveries SET state = $1, attempts = attempts + 1, lease_until = 0, last_error = $2,
			        next_attempt = CASE WHEN $3::bigint = 0 THEN next_attempt ELSE $3::bigint END
			 WHERE id = $4`, newState, r.Error, next, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: delivery %d done: %w", id, err)
	}
	return nil
}
