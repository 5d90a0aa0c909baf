package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

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
func emit(ctx context.Context, tx wtx, t exporttask.Task, ev exporttask.Event, now time.Time) error {
	urls := exporttask.Subscribers(t, ev)
	if len(urls) == 0 {
		return nil
	}
	payload, err := exporttask.MarshalEvent(ev, t, now)
	if err != nil {
		return err
	}
	at := millis(now)
	for _, u := range urls {
		_, err := tx.exec(ctx, qInsertDelivery,
			t.ID, u, ev, payload, at, at)
		if err != nil {
			return fmt.Errorf("writing %s event to the outbox: %w", ev, err)
		}
	}
	return nil
}

// ClaimDeliveries leases due webhook deliveries; see [exporttask.Store].
func (db *DB) ClaimDeliveries(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]exporttask.Delivery, error) {
	if limit <= 0 {
		return nil, nil
	}
	var ds []exporttask.Delivery
	err := db.write(ctx, func(tx wtx) error {
		ds = nil
		at := millis(now)
		rows, err := tx.query(ctx, qDueDeliveries, at, at, limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var (
				d       exporttask.Delivery
				created int64
			)
			if err := rows.Scan(&d.ID, &d.TaskID, &d.URL, &d.Event, &d.Attempts, &d.Payload, &created); err != nil {
				rows.Close()
				return err
			}
			d.CreatedAt = time.UnixMilli(created).UTC()
			ds = append(ds, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		until := millis(now.Add(lease))
		for _, d := range ds {
			if _, err := tx.exec(ctx, qLeaseDelivery, until, d.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [exporttask.Store].
func (db *DB) DeliveryDone(ctx context.Context, id int64, r exporttask.DeliveryResult) error {
	err := db.write(ctx, func(tx wtx) error {
		var state int
		err := tx.queryRow(ctx, qDeliveryState, id).Scan(&state)
		if errors.Is(err, sql.ErrNoRows) {
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
		_, err = tx.exec(ctx, qDeliveryDone, newState, r.Error, next, next, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: delivery %d done: %w", id, err)
	}
	return nil
}
