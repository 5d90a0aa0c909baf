package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

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
		return 0, taskstore.ErrNotFound
	}
	return state, err
}

// RecordAttempt counts an attempt at delivery id and records o.
func (w wtx) RecordAttempt(ctx context.Context, id int64, o storekit.Outcome) error {
	_, err := w.exec(ctx, qDeliveryDone, o.State, o.StatusCode, string(o.Class), o.Error, o.NextAttempt, o.NextAttempt, o.DoneAt, id)
	return err
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
		return 0, fmt.Errorf("%w: task %d has no delivery %d", taskstore.ErrNotFound, taskID, deliveryID)
	}
	return id, err
}
