package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Dialect is what one database does its own way, for an [SQLStore]: the
// syntax its SQL is rendered in ([Statements]), how its write
// transactions lock, retry and classify errors (a full disk, say), and
// its reads. The statements of a write transaction are its [Tx], which
// embeds the shared [SQLTx]. Packages sqlite and postgres each implement
// it with an unexported type.
type Dialect interface {
	// Name is the store's package name: its errors start with it.
	Name() string
	// Statements is the shared SQL text in the store's syntax.
	Statements() *Statements
	// Write runs the store's write transactions (see [Write]).
	Write(ctx context.Context, fn func(tx Tx) error) error
	// Query runs a read query outside any write transaction (see
	// [QueryFunc]).
	Query(ctx context.Context, q string, args ...any) (rows Rows, done func(), err error)
	// TaskRow reads the row (id, doc) of the customer's task id, with
	// the statement [Statements.Task].
	TaskRow(ctx context.Context, customer string, id int64) Scanner
	// NoRows is the error the driver's Scan of a row returns when its
	// query matched none: the error classification of a read.
	NoRows() error
	// Usage reads the customer's storage in use, in bytes, with the
	// query the store's [Tx.LookUp] reads it with for a create's quota
	// check; 0 when the customer has none recorded.
	Usage(ctx context.Context, customer string) (int64, error)
}

// SQLStore is the one SQL store: it carries out the methods of
// [taskstore.Store] that do not depend on the database, over a [Dialect],
// with the functions of this package, and wraps their errors with the
// dialect's name: Get, List, Abort, Dismiss, Usage; Claim, ClaimSmall,
// Progress, ReleaseForRetry, Finish, Expire; the outbox's
// ClaimDeliveries, DeliveryDone, PruneDeliveries, ListDeliveries and
// Redeliver; and Stats. Packages sqlite and postgres embed it in their DB
// and write the others (Create, Purge, ReleaseLeases, Ping, Close), whose
// work differs by database. A method added to the contract is written
// here once, its SQL with the shared text of [Statements]. Create it with
// [NewSQLStore].
type SQLStore struct {
	d          Dialect
	maxRunning int
}

// NewSQLStore returns the SQL store over d. maxRunning is the most tasks
// of one customer leased at once, for Claim; 0 is no limit.
func NewSQLStore(d Dialect, maxRunning int) *SQLStore {
	return &SQLStore{d: d, maxRunning: maxRunning}
}

// name is the store's name, that its errors start with.
func (s *SQLStore) name() string { return s.d.Name() }

// Get returns the customer's task id; see [taskstore.Store].
func (s *SQLStore) Get(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	t, err := ScanFound(s.d.TaskRow(ctx, customer, id), s.d.NoRows())
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: get task %d: %w", s.name(), id, err)
	}
	return t, nil
}

// List returns a page of the customer's tasks, newest first; see
// [taskstore.Store].
func (s *SQLStore) List(ctx context.Context, p taskstore.ListParams) ([]exporttask.Task, bool, error) {
	tasks, more, err := List(ctx, p, s.d.Statements().Syntax().Placeholder, s.d.Query)
	if err != nil {
		return nil, false, fmt.Errorf("%s: list tasks: %w", s.name(), err)
	}
	return tasks, more, nil
}

// Abort moves the customer's task id to ABORTED; see [taskstore.Store].
func (s *SQLStore) Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error) {
	t, err := Abort(ctx, s.d.Write, customer, id, now)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: abort task %d: %w", s.name(), id, err)
	}
	return t, nil
}

// Dismiss removes the customer's final task id, its Idempotency-Key and its
// webhook deliveries, and frees its quota; see [taskstore.Store].
func (s *SQLStore) Dismiss(ctx context.Context, customer string, id int64) error {
	if err := Dismiss(ctx, s.d.Write, customer, id); err != nil {
		return fmt.Errorf("%s: dismiss task %d: %w", s.name(), id, err)
	}
	return nil
}

// Claim leases the next claimable task to worker, customers taking turns,
// none past the store's limit of running tasks per customer; see
// [taskstore.Store].
func (s *SQLStore) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := Claim(ctx, s.d.Write, worker, now, lease, s.maxRunning, 0)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("%s: claim task: %w", s.name(), err)
	}
	return t, ok, nil
}

// ClaimSmall is Claim among the tasks estimated to take at most maxTime;
// see [taskstore.Store].
func (s *SQLStore) ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := Claim(ctx, s.d.Write, worker, now, lease, s.maxRunning, SmallLimit(maxTime))
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("%s: claim a small task: %w", s.name(), err)
	}
	return t, ok, nil
}

// SmallLimit is maxTime in whole seconds (Task.EstimatedTime's unit),
// rounded down, and at least 1 so that a limit always limits.
func SmallLimit(maxTime time.Duration) int64 {
	return max(int64(maxTime/time.Second), 1)
}

// Progress records a leased task's progress; see [taskstore.Store].
func (s *SQLStore) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	t, err := Progress(ctx, s.d.Write, id, worker, progress, now, lease)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: progress of task %d: %w", s.name(), id, err)
	}
	return t, nil
}

// ReleaseForRetry gives a leased task back, to be claimed again after
// delay; see [taskstore.Store].
func (s *SQLStore) ReleaseForRetry(ctx context.Context, id int64, worker string, now time.Time, delay time.Duration) (exporttask.Task, error) {
	t, err := ReleaseForRetry(ctx, s.d.Write, id, worker, now, delay)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: release task %d for a retry: %w", s.name(), id, err)
	}
	return t, nil
}

// Finish ends a leased task as COMPLETED or FAILED; see [taskstore.Store].
func (s *SQLStore) Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (exporttask.Task, error) {
	t, err := Finish(ctx, s.d.Write, id, worker, r, now)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: finish task %d: %w", s.name(), id, err)
	}
	return t, nil
}

// Expire moves COMPLETED tasks past their expiredAt to EXPIRED; see
// [taskstore.Store].
func (s *SQLStore) Expire(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	ids, err := Expire(ctx, s.d.Write, now, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: expire tasks: %w", s.name(), err)
	}
	return ids, nil
}

// ClaimDeliveries leases due webhook deliveries; see [taskstore.Store].
func (s *SQLStore) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) ([]taskstore.Delivery, error) {
	ds, err := ClaimDeliveries(ctx, s.d.Write, c)
	if err != nil {
		return nil, fmt.Errorf("%s: claim deliveries: %w", s.name(), err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [taskstore.Store].
func (s *SQLStore) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) error {
	if err := DeliveryDone(ctx, s.d.Write, id, r); err != nil {
		return fmt.Errorf("%s: delivery %d done: %w", s.name(), id, err)
	}
	return nil
}

// PruneDeliveries removes finished deliveries; see [taskstore.Store].
func (s *SQLStore) PruneDeliveries(ctx context.Context, before time.Time, limit int) (int, error) {
	n, err := PruneDeliveries(ctx, s.d.Write, before, limit)
	if err != nil {
		return 0, fmt.Errorf("%s: prune deliveries: %w", s.name(), err)
	}
	return n, nil
}

// ListDeliveries lists a task's deliveries; see [taskstore.Store].
func (s *SQLStore) ListDeliveries(ctx context.Context, customer string, id, after int64, limit int) ([]taskstore.DeliveryRecord, error) {
	ds, err := ListDeliveries(ctx, s.d.Write, customer, id, after, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: list deliveries of task %d: %w", s.name(), id, err)
	}
	return ds, nil
}

// Redeliver writes a new attempt at a delivery; see [taskstore.Store].
func (s *SQLStore) Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (taskstore.DeliveryRecord, error) {
	d, err := Redeliver(ctx, s.d.Write, customer, id, deliveryID, now)
	if err != nil {
		return taskstore.DeliveryRecord{}, fmt.Errorf("%s: redeliver %d of task %d: %w", s.name(), deliveryID, id, err)
	}
	return d, nil
}

// Usage returns the storage the customer's tasks hold against the quota;
// see [taskstore.Store].
func (s *SQLStore) Usage(ctx context.Context, customer string) (int64, error) {
	used, err := s.d.Usage(ctx, customer)
	if err != nil {
		return 0, fmt.Errorf("%s: reading the storage in use: %w", s.name(), err)
	}
	return used, nil
}

// Stats counts the tasks by status and the pending and given-up webhook
// deliveries; see [taskstore.Store].
func (s *SQLStore) Stats(ctx context.Context) (taskstore.Stats, error) {
	st, err := Stats(ctx, s.d.Query)
	if err != nil {
		return taskstore.Stats{}, fmt.Errorf("%s: %w", s.name(), err)
	}
	return st, nil
}
