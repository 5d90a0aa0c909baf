package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// CustomerTask reads the customer's task id; ErrNotFound when there is
// none.
func (w wtx) CustomerTask(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	return storekit.ScanFound(w.queryRow(ctx, qCustomerTask, id, customer), sql.ErrNoRows)
}

// LeasedTask reads task id and its lease; ErrNotFound when there is none.
func (w wtx) LeasedTask(ctx context.Context, id int64) (storekit.Leased, error) {
	var (
		l   storekit.Leased
		doc []byte
	)
	err := w.queryRow(ctx, qLeasedTask, id).Scan(&doc, &l.Lease.Owner, &l.Lease.Until)
	if errors.Is(err, sql.ErrNoRows) {
		return storekit.Leased{}, taskstore.ErrNotFound
	}
	if err != nil {
		return storekit.Leased{}, err
	}
	l.Task, err = storekit.DecodeTask(id, doc)
	return l, err
}

// UpdateTask writes t's row and returns its customer.
func (w wtx) UpdateTask(ctx context.Context, t exporttask.Task, doc []byte, l storekit.Lease) (string, error) {
	var customer string
	err := w.queryRow(ctx, qUpdateTask,
		t.Status, storekit.Millis(t.ExpiredAt.Time), l.Owner, l.Until, doc, storekit.FinalAt(t), t.ID).Scan(&customer)
	return customer, err
}

// DeleteTask deletes task id, its deliveries and the keys that name it,
// and returns its document bytes.
func (w wtx) DeleteTask(ctx context.Context, id int64) (int64, error) {
	for _, q := range []string{qDeleteDeliveries, qDeleteKeys} {
		if _, err := w.exec(ctx, q, id); err != nil {
			return 0, err
		}
	}
	var docBytes int64
	err := w.queryRow(ctx, qDeleteTask, id).Scan(&docBytes)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, taskstore.ErrNotFound
	}
	return docBytes, err
}

// Purgeable reads up to limit final tasks to remove, oldest first.
func (w wtx) Purgeable(ctx context.Context, before int64, limit int) ([]storekit.Final, error) {
	rows, err := w.query(ctx, qPurgeable, before, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []storekit.Final
	for rows.Next() {
		var f storekit.Final
		if err := rows.Scan(&f.ID, &f.Customer); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// AddUsage adds delta bytes to the customer's storage in use.
func (w wtx) AddUsage(ctx context.Context, customer string, delta int64) error {
	if delta == 0 {
		return nil
	}
	if _, err := w.exec(ctx, qAddUsage, customer, delta); err != nil {
		return fmt.Errorf("updating storage usage: %w", err)
	}
	return nil
}
