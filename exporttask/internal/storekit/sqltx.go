package storekit

import (
	"context"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Conn runs statements inside one write transaction of a store, with the
// store's driver. The statements keep their context's values; whether
// they stop when it is cancelled is the store's choice.
type Conn interface {
	// Exec runs a statement and returns how many rows it changed.
	Exec(ctx context.Context, q string, args ...any) (affected int64, err error)
	// Query runs a query; done closes its rows.
	Query(ctx context.Context, q string, args ...any) (rows Rows, done func(), err error)
	// QueryRow runs a query of one row.
	QueryRow(ctx context.Context, q string, args ...any) Scanner
	// Insert runs q, an INSERT of one row into a table whose primary key
	// is the integer column id, and returns the new row's id: SQLite's
	// last_insert_rowid(), PostgreSQL's RETURNING id. (SQLite's
	// RETURNING would make it keep a statement journal, a copy of every
	// page the insert changes, inside the write transaction.)
	Insert(ctx context.Context, q string, args ...any) (id int64, err error)
}

// SQLTx is the [Tx] of the shared SQL text ([Statements]) over a store's
// [Conn]: every method of Tx but Claimable, whose locking is each
// database's own. A store's transaction type embeds it, adds Claimable,
// and may replace a method with one of its own where its database does
// the work differently (PostgreSQL's usage ledger, say).
type SQLTx struct {
	Conn Conn
	SQL  *Statements
	// NoRows is the error the driver's Scan returns when a query matched
	// no row.
	NoRows error
}

func (w SQLTx) queryRow(ctx context.Context, q string, args ...any) Scanner {
	return w.Conn.QueryRow(ctx, w.SQL.SQL(q), args...)
}

func (w SQLTx) exec(ctx context.Context, q string, args ...any) (int64, error) {
	return w.Conn.Exec(ctx, w.SQL.SQL(q), args...)
}

// collect runs query q and reads its rows with scan, closing them before
// it returns, so that the transaction's next statements can run.
func collect[T any](ctx context.Context, w SQLTx, scan func(Scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, done, err := w.Conn.Query(ctx, w.SQL.SQL(q), args...)
	if err != nil {
		return nil, err
	}
	defer done()
	return Collect(rows, scan)
}

// CustomerTask reads (and, where rows lock, locks) the customer's task
// id; see [Tx].
func (w SQLTx) CustomerTask(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	return ScanFound(w.queryRow(ctx, qCustomerTask, id, customer), w.NoRows)
}

// LeasedTask reads (and locks) task id with its lease; see [Tx].
func (w SQLTx) LeasedTask(ctx context.Context, id int64) (Leased, error) {
	var (
		l   Leased
		doc []byte
	)
	err := w.queryRow(ctx, qLeasedTask, id).Scan(&doc, &l.Lease.Owner, &l.Lease.Until)
	if errors.Is(err, w.NoRows) {
		return Leased{}, taskstore.ErrNotFound
	}
	if err != nil {
		return Leased{}, err
	}
	l.Task, err = DecodeTask(id, doc)
	return l, err
}

// LookUp reads what decides a create, stopping at the first finding that
// decides it: the task named by the Idempotency-Key, an equivalent live
// task (locked), the storage in use (the customer_usage row). It takes no
// lock of its own: it suits a store whose write transactions run one at
// a time, which keeps what it found true until the insert; see [Tx].
func (w SQLTx) LookUp(ctx context.Context, p taskstore.CreateParams) (Existing, error) {
	var found Existing
	if p.IdempotencyKey != "" {
		err := w.queryRow(ctx, qIdempotencyKey, p.Customer, p.IdempotencyKey).Scan(&found.KeyTask, &found.KeyFingerprint)
		if err == nil {
			return found, nil
		}
		if !errors.Is(err, w.NoRows) {
			return Existing{}, fmt.Errorf("reading idempotency key: %w", err)
		}
	}
	if p.Identity.Dedup != "" {
		t, err := ScanTask(w.queryRow(ctx, qDuplicate, p.Customer, p.Identity.Dedup, Millis(p.Now)))
		if err == nil {
			found.Duplicate = &t
			return found, nil
		}
		if !errors.Is(err, w.NoRows) {
			return Existing{}, fmt.Errorf("looking for a duplicate: %w", err)
		}
	}
	if p.Quota > 0 {
		err := w.queryRow(ctx, qUsage, p.Customer).Scan(&found.Used)
		if err != nil && !errors.Is(err, w.NoRows) {
			return Existing{}, fmt.Errorf("reading storage usage: %w", err)
		}
	}
	return found, nil
}

// InsertTask stores the new task t, counts its size and its document's in
// the customer's usage ([SQLTx.AddUsage]) and records its
// Idempotency-Key, if any, with the request's fingerprint; see [Tx].
func (w SQLTx) InsertTask(ctx context.Context, p taskstore.CreateParams, t exporttask.Task, doc []byte) (int64, error) {
	id, err := w.Conn.Insert(ctx, w.SQL.SQL(qInsertTask), p.Customer, string(t.Status), p.Identity.Dedup, t.EstimatedSize, doc, len(doc))
	if err != nil {
		return 0, fmt.Errorf("inserting: %w", err)
	}
	if err := w.AddUsage(ctx, p.Customer, t.EstimatedSize+int64(len(doc))); err != nil {
		return 0, err
	}
	if p.IdempotencyKey != "" {
		if err := w.RememberKey(ctx, p.Customer, p.IdempotencyKey, p.Identity.Fingerprint, id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// RememberKey records the customer's Idempotency-Key, with the request's
// fingerprint fp, as naming task id; see [Tx].
func (w SQLTx) RememberKey(ctx context.Context, customer, key, fp string, id int64) error {
	if _, err := w.exec(ctx, qRememberKey, customer, key, fp, id); err != nil {
		return fmt.Errorf("recording idempotency key: %w", err)
	}
	return nil
}

// AddUsage adds delta bytes to the customer's customer_usage row; see
// [Tx].
func (w SQLTx) AddUsage(ctx context.Context, customer string, delta int64) error {
	if delta == 0 {
		return nil
	}
	if _, err := w.exec(ctx, qAddUsage, customer, delta); err != nil {
		return fmt.Errorf("updating storage usage: %w", err)
	}
	return nil
}

// UpdateTask writes t's row and returns its customer; see [Tx].
func (w SQLTx) UpdateTask(ctx context.Context, t exporttask.Task, doc []byte, l Lease) (string, error) {
	var customer string
	err := w.queryRow(ctx, qUpdateTask,
		string(t.Status), Millis(t.ExpiredAt.Time), l.Owner, l.Until, doc, FinalAt(t), t.ID).Scan(&customer)
	return customer, err
}

// DeleteTask deletes task id, its deliveries and the keys that name it,
// and returns its document bytes; see [Tx].
func (w SQLTx) DeleteTask(ctx context.Context, id int64) (int64, error) {
	for _, q := range []string{qDeleteDeliveries, qDeleteKeys} {
		if _, err := w.exec(ctx, q, id); err != nil {
			return 0, err
		}
	}
	var docBytes int64
	err := w.queryRow(ctx, qDeleteTask, id).Scan(&docBytes)
	if errors.Is(err, w.NoRows) {
		return 0, taskstore.ErrNotFound
	}
	return docBytes, err
}

// Purgeable reads (and locks, skipping the rows another transaction
// holds) up to limit final tasks to remove, oldest first; see [Tx].
func (w SQLTx) Purgeable(ctx context.Context, before int64, limit int) ([]Final, error) {
	return collect(ctx, w, func(r Scanner) (Final, error) {
		var f Final
		err := r.Scan(&f.ID, &f.Customer)
		return f, err
	}, qPurgeable, before, limit)
}

// Expirable reads (and locks, skipping the rows another transaction
// holds) up to limit expired COMPLETED tasks; see [Tx].
func (w SQLTx) Expirable(ctx context.Context, now int64, limit int) ([]exporttask.Task, error) {
	return collect(ctx, w, ScanTask, qExpirable, now, limit)
}

// InsertDeliveries writes one delivery per entry of out, in order; see
// [Tx].
func (w SQLTx) InsertDeliveries(ctx context.Context, taskID int64, ev exporttask.Event, out []Outgoing, at int64) error {
	for _, o := range out {
		if _, err := w.exec(ctx, qInsertDelivery, taskID, o.URL, o.Host, string(ev), o.Payload, at); err != nil {
			return err
		}
	}
	return nil
}

// DueDeliveries reads (and locks, skipping the rows another transaction
// holds) the due deliveries; see [Tx].
func (w SQLTx) DueDeliveries(ctx context.Context, q Due) ([]taskstore.Delivery, error) {
	perHost := q.PerHost
	if perHost <= 0 {
		perHost = q.Limit
	}
	skip := w.SQL.Syntax().List(append([]string{}, q.SkipHosts...))
	return collect(ctx, w, ScanDelivery, qDueDeliveries, q.Now, skip, perHost, q.Limit)
}

// LeaseDeliveries leases the deliveries ids until until; see [Tx].
func (w SQLTx) LeaseDeliveries(ctx context.Context, ids []int64, until int64) error {
	_, err := w.exec(ctx, qLeaseDeliveries, until, w.SQL.Syntax().List(append([]int64{}, ids...)))
	return err
}

// DeliveryState reads (and locks) delivery id's state; see [Tx].
func (w SQLTx) DeliveryState(ctx context.Context, id int64) (int, error) {
	var state int
	err := w.queryRow(ctx, qDeliveryState, id).Scan(&state)
	if errors.Is(err, w.NoRows) {
		return 0, taskstore.ErrNotFound
	}
	return state, err
}

// RecordAttempt counts an attempt at delivery id and records o; see [Tx].
func (w SQLTx) RecordAttempt(ctx context.Context, id int64, o Outcome) error {
	_, err := w.exec(ctx, qRecordAttempt, o.State, o.StatusCode, string(o.Class), o.Error, o.NextAttempt, o.DoneAt, id)
	return err
}

// PruneDeliveries deletes finished deliveries done before before,
// skipping the rows another transaction holds; see [Tx].
func (w SQLTx) PruneDeliveries(ctx context.Context, before int64, limit int) (int, error) {
	n, err := w.exec(ctx, qPruneDeliveries, before, limit)
	return int(n), err
}

// TaskDeliveries reads a task's deliveries by id; see [Tx].
func (w SQLTx) TaskDeliveries(ctx context.Context, taskID, after int64, limit int) ([]taskstore.DeliveryRecord, error) {
	return collect(ctx, w, ScanDeliveryRecord, qTaskDeliveries, taskID, after, limit)
}

// CopyDelivery writes a new pending copy of a delivery; see [Tx].
func (w SQLTx) CopyDelivery(ctx context.Context, taskID, deliveryID, at int64) (int64, error) {
	var id int64
	err := w.queryRow(ctx, qCopyDelivery, at, deliveryID, taskID).Scan(&id)
	if errors.Is(err, w.NoRows) {
		return 0, fmt.Errorf("%w: task %d has no delivery %d", taskstore.ErrNotFound, taskID, deliveryID)
	}
	return id, err
}
