package server

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// timedStore records the duration and outcome of every Store call the
// server, its workers and its deliverer make. Methods that a later Store
// interface adds pass through the embedded Store untimed.
type timedStore struct {
	taskstore.Store
	m *metrics
}

// time starts timing op; call the result with the operation's error.
func (s timedStore) time(op string) func(*error) {
	start := time.Now()
	return func(err *error) { s.m.observeStore(op, start, *err) }
}

func (s timedStore) Create(ctx context.Context, p taskstore.CreateParams) (t exporttask.Task, replayed bool, err error) {
	defer s.time("create")(&err)
	return s.Store.Create(ctx, p)
}

func (s timedStore) Get(ctx context.Context, customer string, id int64) (t exporttask.Task, err error) {
	defer s.time("get")(&err)
	return s.Store.Get(ctx, customer, id)
}

func (s timedStore) List(ctx context.Context, p taskstore.ListParams) (tasks []exporttask.Task, more bool, err error) {
	defer s.time("list")(&err)
	return s.Store.List(ctx, p)
}

func (s timedStore) Abort(ctx context.Context, customer string, id int64, now time.Time) (t exporttask.Task, err error) {
	defer s.time("abort")(&err)
	return s.Store.Abort(ctx, customer, id, now)
}

func (s timedStore) Dismiss(ctx context.Context, customer string, id int64) (err error) {
	defer s.time("dismiss")(&err)
	return s.Store.Dismiss(ctx, customer, id)
}

func (s timedStore) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (t exporttask.Task, ok bool, err error) {
	defer s.time("claim")(&err)
	return s.Store.Claim(ctx, worker, now, lease)
}

func (s timedStore) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (t exporttask.Task, err error) {
	defer s.time("progress")(&err)
	return s.Store.Progress(ctx, id, worker, progress, now, lease)
}

func (s timedStore) Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (t exporttask.Task, err error) {
	defer s.time("finish")(&err)
	return s.Store.Finish(ctx, id, worker, r, now)
}

func (s timedStore) Expire(ctx context.Context, now time.Time, limit int) (ids []int64, err error) {
	defer s.time("expire")(&err)
	return s.Store.Expire(ctx, now, limit)
}

func (s timedStore) Purge(ctx context.Context, before time.Time, limit int) (ids []int64, err error) {
	defer s.time("purge")(&err)
	return s.Store.Purge(ctx, before, limit)
}

func (s timedStore) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) (ds []taskstore.Delivery, err error) {
	defer s.time("claim_deliveries")(&err)
	return s.Store.ClaimDeliveries(ctx, c)
}

func (s timedStore) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) (err error) {
	defer s.time("delivery_done")(&err)
	return s.Store.DeliveryDone(ctx, id, r)
}

func (s timedStore) Ping(ctx context.Context) (err error) {
	defer s.time("ping")(&err)
	return s.Store.Ping(ctx)
}

func (s timedStore) TaskByIdempotencyKey(ctx context.Context, customer, key string, req exporttask.CreateRequest) (t exporttask.Task, err error) {
	defer s.time("task_by_idempotency_key")(&err)
	return s.Store.TaskByIdempotencyKey(ctx, customer, key, req)
}
