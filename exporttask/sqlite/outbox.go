package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// ClaimDeliveries leases due webhook deliveries; see [taskstore.Store].
func (db *DB) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) ([]taskstore.Delivery, error) {
	ds, err := storekit.ClaimDeliveries(ctx, db.write, c)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [taskstore.Store].
func (db *DB) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) error {
	if err := storekit.DeliveryDone(ctx, db.write, id, r); err != nil {
		return fmt.Errorf("sqlite: delivery %d done: %w", id, err)
	}
	return nil
}

// InsertDeliveries writes one delivery per entry of out, in order.
func (w wtx) InsertDeliveries(ctx context.Context, taskID int64, ev exporttask.Event, out []storekit.Outgoing, at int64) error {
	for _, o := range out {
		if _, err := w.exec(ctx, qInsertDelivery, taskID, o.URL, o.Host, ev, o.Payload, at, at); err != nil {
			return err
		}
	}
	return nil
}

// DueDeliveries reads the due deliveries. The rows are closed before it
// returns, so the transaction's next statements can run.
func (w wtx) DueDeliveries(ctx context.Context, q storekit.Due) ([]taskstore.Delivery, error) {
	skip, err := json.Marshal(append([]string{}, q.SkipHosts...)) // [] rather than null
	if err != nil {
		return nil, err
	}
	perHost := q.PerHost
	if perHost <= 0 {
		perHost = q.Limit
	}
	rows, err := w.query(ctx, qDueDeliveries, q.Now, q.Now, string(skip), perHost, q.Limit)
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
func (w wtx) DeliveryState(ctx context.Context, id int64) (int, error) {
	var state int
	err := w.queryRow(ctx, qDeliveryState, id).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, exporttask.ErrNotFound
	}
	return state, err
}

// RecordAttempt counts an attempt at delivery id and records o.
func (w wtx) RecordAttempt(ctx context.Context, id int64, o storekit.Outcome) error {
	_, err := w.exec(ctx, qDeliveryDone, o.State, o.StatusCode, string(o.Class), o.Error, o.NextAttempt, o.NextAttempt, o.DoneAt, id)
	return err
}

// PruneDeliveries removes finished deliveries; see [taskstore.Store].
func (db *DB) PruneDeliveries(ctx context.Context, before time.Time, limit int) (int, error) {
	n, err := storekit.PruneDeliveries(ctx, db.write, before, limit)
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune deliveries: %w", err)
	}
	return n, nil
}

// ListDeliveries lists a task's deliveries; see [taskstore.Store].
func (db *DB) ListDeliveries(ctx context.Context, customer string, id, after int64, limit int) ([]taskstore.DeliveryRecord, error) {
	ds, err := storekit.ListDeliveries(ctx, db.write, customer, id, after, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list deliveries of task %d: %w", id, err)
	}
	return ds, nil
}

// Redeliver writes a new attempt at a delivery; see [taskstore.Store].
func (db *DB) Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (taskstore.DeliveryRecord, error) {
	d, err := storekit.Redeliver(ctx, db.write, customer, id, deliveryID, now)
	if err != nil {
		return taskstore.DeliveryRecord{}, fmt.Errorf("sqlite: redeliver %d of task %d: %w", deliveryID, id, err)
	}
	return d, nil
}

// PruneDeliveries deletes finished deliveries done before before.
func (w wtx) PruneDeliveries(ctx context.Context, before int64, limit int) (int, error) {
	res, err := w.exec(ctx, qPruneDeliveries, before, limit)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// TaskDeliveries reads a task's deliveries by id.
func (w wtx) TaskDeliveries(ctx context.Context, taskID, after int64, limit int) ([]taskstore.DeliveryRecord, error) {
	rows, err := w.query(ctx, qTaskDeliveries, taskID, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return storekit.Collect(rows, storekit.ScanDeliveryRecord)
}

// CopyDelivery writes a new pending copy of a delivery.
func (w wtx) CopyDelivery(ctx context.Context, taskID, deliveryID, at int64) (int64, error) {
	var id int64
	err := w.queryRow(ctx, qCopyDelivery, at, at, deliveryID, taskID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: task %d has no delivery %d", exporttask.ErrNotFound, taskID, deliveryID)
	}
	return id, err
}
