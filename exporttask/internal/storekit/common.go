package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// CommonConfig is what [NewCommon] needs of a store.
type CommonConfig struct {
	// Name is the store's package name: its errors start with it.
	Name string
	// Write runs the store's write transactions.
	Write Write
	// MaxRunning is the most tasks of one customer leased at once, for
	// Claim; 0 is no limit.
	MaxRunning int
	// Query runs the read queries of List and Stats; Placeholder returns
	// the store's SQL for the n-th query parameter (from 1).
	Query       QueryFunc
	Placeholder func(n int) string
	// TaskRow reads the row (id, doc) of the customer's task id. NoRows
	// is the error the driver's Scan of such a row returns when the query
	// matched none.
	TaskRow func(ctx context.Context, customer string, id int64) Scanner
	NoRows  error
	// Usage reads the customer's storage in use, in bytes, with the
	// query the store's [Tx.LookUp] reads it with for a create's quota
	// check; 0 when the customer has none recorded.
	Usage func(ctx context.Context, customer string) (int64, error)
}

// Common carries out the methods of [taskstore.Store] that every store
// does the same way, with the functions of this package, and wraps their
// errors with the store's name: Get, List, Abort,
// Dismiss, Claim, Progress, ReleaseForRetry, Finish, Expire, the outbox's
// ClaimDeliveries, DeliveryDone, PruneDeliveries, ListDeliveries and
// Redeliver, Usage and Stats. A store embeds it, so these are the store's
// methods, and writes the others (Create, Purge, ReleaseLeases, Ping,
// Close) itself. Create it with [NewCommon].
type Common struct {
	c CommonConfig
}

// NewCommon returns the Common of the store that c describes.
func NewCommon(c CommonConfig) Common {
	return Common{c: c}
}

// Get returns the customer's task id; see [taskstore.Store].
func (s Common) Get(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	t, err := ScanFound(s.c.TaskRow(ctx, customer, id), s.c.NoRows)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: get task %d: %w", s.c.Name, id, err)
	}
	return t, nil
}

// List returns a page of the customer's tasks, newest first; see
// [taskstore.Store].
func (s Common) List(ctx context.Context, p taskstore.ListParams) ([]exporttask.Task, bool, error) {
	tasks, more, err := List(ctx, p, s.c.Placeholder, s.c.Query)
	if err != nil {
		return nil, false, fmt.Errorf("%s: list tasks: %w", s.c.Name, err)
	}
	return tasks, more, nil
}

// Abort moves the customer's task id to ABORTED; see [taskstore.Store].
func (s Common) Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error) {
	t, err := Abort(ctx, s.c.Write, customer, id, now)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: abort task %d: %w", s.c.Name, id, err)
	}
	return t, nil
}

// Dismiss removes the customer's final task id, its Idempotency-Key and its
// webhook deliveries, and frees its quota; see [taskstore.Store].
func (s Common) Dismiss(ctx context.Context, customer string, id int64) error {
	if err := Dismiss(ctx, s.c.Write, customer, id); err != nil {
		return fmt.Errorf("%s: dismiss task %d: %w", s.c.Name, id, err)
	}
	return nil
}

// Claim leases the next claimable task to worker, customers taking turns,
// none past the store's limit of running tasks per customer; see
// [taskstore.Store].
func (s Common) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := Claim(ctx, s.c.Write, worker, now, lease, s.c.MaxRunning, 0)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("%s: claim task: %w", s.c.Name, err)
	}
	return t, ok, nil
}

// ClaimSmall is Claim among the tasks estimated to take at most maxTime;
// see [taskstore.Store].
func (s Common) ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (exporttask.Task, bool, error) {
	t, ok, err := Claim(ctx, s.c.Write, worker, now, lease, s.c.MaxRunning, SmallLimit(maxTime))
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("%s: claim a small task: %w", s.c.Name, err)
	}
	return t, ok, nil
}

// SmallLimit is maxTime in whole seconds (Task.EstimatedTime's unit),
// rounded down, and at least 1 so that a limit always limits.
func SmallLimit(maxTime time.Duration) int64 {
	return max(int64(maxTime/time.Second), 1)
}

// Progress records a leased task's progress; see [taskstore.Store].
func (s Common) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	t, err := Progress(ctx, s.c.Write, id, worker, progress, now, lease)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: progress of task %d: %w", s.c.Name, id, err)
	}
	return t, nil
}

// ReleaseForRetry gives a leased task back, to be claimed again after
// delay; see [taskstore.Store].
func (s Common) ReleaseForRetry(ctx context.Context, id int64, worker string, now time.Time, delay time.Duration) (exporttask.Task, error) {
	t, err := ReleaseForRetry(ctx, s.c.Write, id, worker, now, delay)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: release task %d for a retry: %w", s.c.Name, id, err)
	}
	return t, nil
}

// Finish ends a leased task as COMPLETED or FAILED; see [taskstore.Store].
func (s Common) Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (exporttask.Task, error) {
	t, err := Finish(ctx, s.c.Write, id, worker, r, now)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%s: finish task %d: %w", s.c.Name, id, err)
	}
	return t, nil
}

// Expire moves COMPLETED tasks past their expiredAt to EXPIRED; see
// [taskstore.Store].
func (s Common) Expire(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	ids, err := Expire(ctx, s.c.Write, now, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: expire tasks: %w", s.c.Name, err)
	}
	return ids, nil
}

// ClaimDeliveries leases due webhook deliveries; see [taskstore.Store].
func (s Common) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) ([]taskstore.Delivery, error) {
	ds, err := ClaimDeliveries(ctx, s.c.Write, c)
	if err != nil {
		return nil, fmt.Errorf("%s: claim deliveries: %w", s.c.Name, err)
	}
	return ds, nil
}

// DeliveryDone records the outcome of a delivery attempt; see
// [taskstore.Store].
func (s Common) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) error {
	if err := DeliveryDone(ctx, s.c.Write, id, r); err != nil {
		return fmt.Errorf("%s: delivery %d done: %w", s.c.Name, id, err)
	}
	return nil
}

// PruneDeliveries removes finished deliveries; see [taskstore.Store].
func (s Common) PruneDeliveries(ctx context.Context, before time.Time, limit int) (int, error) {
	n, err := PruneDeliveries(ctx, s.c.Write, before, limit)
	if err != nil {
		return 0, fmt.Errorf("%s: prune deliveries: %w", s.c.Name, err)
	}
	return n, nil
}

// ListDeliveries lists a task's deliveries; see [taskstore.Store].
func (s Common) ListDeliveries(ctx context.Context, customer string, id, after int64, limit int) ([]taskstore.DeliveryRecord, error) {
	ds, err := ListDeliveries(ctx, s.c.Write, customer, id, after, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: list deliveries of task %d: %w", s.c.Name, id, err)
	}
	return ds, nil
}

// Redeliver writes a new attempt at a delivery; see [taskstore.Store].
func (s Common) Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (taskstore.DeliveryRecord, error) {
	d, err := Redeliver(ctx, s.c.Write, customer, id, deliveryID, now)
	if err != nil {
		return taskstore.DeliveryRecord{}, fmt.Errorf("%s: redeliver %d of task %d: %w", s.c.Name, deliveryID, id, err)
	}
	return d, nil
}

// Usage returns the storage the customer's tasks hold against the quota;
// see [taskstore.Store].
func (s Common) Usage(ctx context.Context, customer string) (int64, error) {
	used, err := s.c.Usage(ctx, customer)
	if err != nil {
		return 0, fmt.Errorf("%s: reading the storage in use: %w", s.c.Name, err)
	}
	return used, nil
}

// Stats counts the tasks by status and the pending and given-up webhook
// deliveries; see [taskstore.Store].
func (s Common) Stats(ctx context.Context) (taskstore.Stats, error) {
	st, err := Stats(ctx, s.c.Query)
	if err != nil {
		return taskstore.Stats{}, fmt.Errorf("%s: %w", s.c.Name, err)
	}
	return st, nil
}
