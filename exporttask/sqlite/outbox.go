package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// ClaimDeliveries leases due webhook deliveries; see [exporttask.Store].
func (db *DB) ClaimDeliveries(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]exporttask.Delivery, error) {
	ds, err := storekit.ClaimDeliveries(ctx, db.write, now, limit, lease)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [exporttask.Store].
func (db *DB) DeliveryDone(ctx context.Context, id int64, r exporttask.DeliveryResult) error {
	if err := storekit.DeliveryDone(ctx, db.write, id, r); err != nil {
		return fmt.Errorf("sqlite: delivery %d done: %w", id, err)
	}
	return nil
}

// InsertDeliveries writes one delivery per entry of out, in order.
func (w wtx) InsertDeliveries(ctx context.Context, taskID int64, ev exporttask.Event, out []storekit.Outgoing, at int64) error {
	for _, o := range out {
		if _, err := w.exec(ctx, qInsertDelivery, taskID, o.URL, ev, o.Payload, at, at); err != nil {
			return err
		}
	}
	return nil
}

// DueDeliveries reads the due deliveries. The rows are closed before it
// returns, so the transaction's next statements can run.
func (w wtx) DueDeliveries(ctx context.Context, now int64, limit int) ([]exporttask.Delivery, error) {
	rows, err := w.query(ctx, qDueDeliveries, now, now, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return storekit.Collect(rows, storekit.ScanDelivery)
}

// LeaseDeliveries leases the deliveries ids until until.
func (w wtx) LeaseDeliveries(ctx context.Context, ids []int64, until int64) error {
	for _, id := range ids {
		if _, err := w.exec(ctx, qLeaseDelivery, until, id); err != nil {
			return err
		}
	}
	return nil
}

// DeliveryState reads delivery id's state.
func (w wtx) DeliveryState(ctx context.Context, id int64) (storekit.DeliveryState, error) {
	var state int
	err := w.queryRow(ctx, qDeliveryState, id).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, exporttask.ErrNotFound
	}
	return storekit.DeliveryState(state), err
}

// RecordAttempt counts an attempt at delivery id and records o.
func (w wtx) RecordAttempt(ctx context.Context, id int64, o storekit.Outcome) error {
	_, err := w.exec(ctx, qDeliveryDone, int(o.State), o.Error, o.NextAttempt, o.NextAttempt, id)
	return err
}
