package taskstore

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Observer is told of every call an [Instrumented] store passes on: the
// operation's name (the method's, in snake case: "claim_small" is
// reported as "claim"), when it started, and the error it returned.
type Observer func(op string, start time.Time, err error)

// Instrumented is a store whose calls are reported to Observe: a
// decorator of the capabilities it is given, which may be some of them
// only (a nil one must not be called). It embeds them, so a method added
// to the contract passes through, untimed, until it is given a wrapper
// here.
type Instrumented struct {
	Tasks
	Queue
	Outbox
	Health
	Observe Observer
}

// Instrument returns st with every call reported to observe.
func Instrument(st Store, observe Observer) Instrumented {
	return Instrumented{Tasks: st, Queue: st, Outbox: st, Health: st, Observe: observe}
}

// timed reports a call of op that started at start with the error *err.
func (s Instrumented) timed(op string) func(err *error) {
	start := time.Now()
	return func(err *error) { s.Observe(op, start, *err) }
}

// Create is [Tasks.Create], reported as "create".
func (s Instrumented) Create(ctx context.Context, p CreateParams) (t exporttask.Task, replayed bool, err error) {
	defer s.timed("create")(&err)
	return s.Tasks.Create(ctx, p)
}

// Get is [Tasks.Get], reported as "get".
func (s Instrumented) Get(ctx context.Context, customer string, id int64) (t exporttask.Task, err error) {
	defer s.timed("get")(&err)
	return s.Tasks.Get(ctx, customer, id)
}

// List is [Tasks.List], reported as "list".
func (s Instrumented) List(ctx context.Context, p ListParams) (tasks []exporttask.Task, more bool, err error) {
	defer s.timed("list")(&err)
	return s.Tasks.List(ctx, p)
}

// Abort is [Tasks.Abort], reported as "abort".
func (s Instrumented) Abort(ctx context.Context, customer string, id int64, now time.Time) (t exporttask.Task, err error) {
	defer s.timed("abort")(&err)
	return s.Tasks.Abort(ctx, customer, id, now)
}

// Dismiss is [Tasks.Dismiss], reported as "dismiss".
func (s Instrumented) Dismiss(ctx context.Context, customer string, id int64) (err error) {
	defer s.timed("dismiss")(&err)
	return s.Tasks.Dismiss(ctx, customer, id)
}

// Usage is [Tasks.Usage], reported as "usage".
func (s Instrumented) Usage(ctx context.Context, customer string) (used int64, err error) {
	defer s.timed("usage")(&err)
	return s.Tasks.Usage(ctx, customer)
}

// Claim is [Queue.Claim], reported as "claim".
func (s Instrumented) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (t exporttask.Task, ok bool, err error) {
	defer s.timed("claim")(&err)
	return s.Queue.Claim(ctx, worker, now, lease)
}

// ClaimSmall is [Queue.ClaimSmall], reported as "claim".
func (s Instrumented) ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (t exporttask.Task, ok bool, err error) {
	defer s.timed("claim")(&err)
	return s.Queue.ClaimSmall(ctx, worker, now, lease, maxTime)
}

// Progress is [Queue.Progress], reported as "progress".
func (s Instrumented) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (t exporttask.Task, err error) {
	defer s.timed("progress")(&err)
	return s.Queue.Progress(ctx, id, worker, progress, now, lease)
}

// ReleaseForRetry is [Queue.ReleaseForRetry], reported as
// "release_for_retry".
func (s Instrumented) ReleaseForRetry(ctx context.Context, id int64, worker string, now time.Time, delay time.Duration) (t exporttask.Task, err error) {
	defer s.timed("release_for_retry")(&err)
	return s.Queue.ReleaseForRetry(ctx, id, worker, now, delay)
}

// Finish is [Queue.Finish], reported as "finish".
func (s Instrumented) Finish(ctx context.Context, id int64, worker string, r FinishParams, now time.Time) (t exporttask.Task, err error) {
	defer s.timed("finish")(&err)
	return s.Queue.Finish(ctx, id, worker, r, now)
}

// Expire is [Queue.Expire], reported as "expire".
func (s Instrumented) Expire(ctx context.Context, now time.Time, limit int) (ids []int64, err error) {
	defer s.timed("expire")(&err)
	return s.Queue.Expire(ctx, now, limit)
}

// Purge is [Queue.Purge], reported as "purge".
func (s Instrumented) Purge(ctx context.Context, before time.Time, limit int) (ids []int64, err error) {
	defer s.timed("purge")(&err)
	return s.Queue.Purge(ctx, before, limit)
}

// ReleaseLeases is [Queue.ReleaseLeases], reported as "release_leases".
func (s Instrumented) ReleaseLeases(ctx context.Context, prefix string) (n int, err error) {
	defer s.timed("release_leases")(&err)
	return s.Queue.ReleaseLeases(ctx, prefix)
}

// ClaimDeliveries is [Outbox.ClaimDeliveries], reported as
// "claim_deliveries".
func (s Instrumented) ClaimDeliveries(ctx context.Context, c DeliveryClaim) (ds []Delivery, err error) {
	defer s.timed("claim_deliveries")(&err)
	return s.Outbox.ClaimDeliveries(ctx, c)
}

// DeliveryDone is [Outbox.DeliveryDone], reported as "delivery_done".
func (s Instrumented) DeliveryDone(ctx context.Context, id int64, r DeliveryResult) (err error) {
	defer s.timed("delivery_done")(&err)
	return s.Outbox.DeliveryDone(ctx, id, r)
}

// PruneDeliveries is [Outbox.PruneDeliveries], reported as
// "prune_deliveries".
func (s Instrumented) PruneDeliveries(ctx context.Context, before time.Time, limit int) (n int, err error) {
	defer s.timed("prune_deliveries")(&err)
	return s.Outbox.PruneDeliveries(ctx, before, limit)
}

// ListDeliveries is [Outbox.ListDeliveries], reported as
// "list_deliveries".
func (s Instrumented) ListDeliveries(ctx context.Context, customer string, id int64, after int64, limit int) (ds []DeliveryRecord, err error) {
	defer s.timed("list_deliveries")(&err)
	return s.Outbox.ListDeliveries(ctx, customer, id, after, limit)
}

// Redeliver is [Outbox.Redeliver], reported as "redeliver".
func (s Instrumented) Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (d DeliveryRecord, err error) {
	defer s.timed("redeliver")(&err)
	return s.Outbox.Redeliver(ctx, customer, id, deliveryID, now)
}

// Stats is [Health.Stats], reported as "stats".
func (s Instrumented) Stats(ctx context.Context) (st Stats, err error) {
	defer s.timed("stats")(&err)
	return s.Health.Stats(ctx)
}

// Ping is [Health.Ping], reported as "ping".
func (s Instrumented) Ping(ctx context.Context) (err error) {
	defer s.timed("ping")(&err)
	return s.Health.Ping(ctx)
}
