package server

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// storeTimer records the duration and outcome of store calls in m.
type storeTimer struct{ m *metrics }

// time starts timing op; call the result with the operation's error.
func (s storeTimer) time(op string) func(*error) {
	start := time.Now()
	return func(err *error) { s.m.observeStore(op, start, *err) }
}

// timedStore times every call the server makes to its [Store]. It has a
// method for each method of Store and embeds none, so a method added to
// Store does not build until it is timed here.
type timedStore struct {
	st Store
	storeTimer
}

var _ Store = timedStore{}

func (s timedStore) Create(ctx context.Context, p taskstore.CreateParams) (t exporttask.Task, replayed bool, err error) {
	defer s.time("create")(&err)
	return s.st.Create(ctx, p)
}

func (s timedStore) Get(ctx context.Context, customer string, id int64) (t exporttask.Task, err error) {
	defer s.time("get")(&err)
	return s.st.Get(ctx, customer, id)
}

func (s timedStore) List(ctx context.Context, p taskstore.ListParams) (tasks []exporttask.Task, more bool, err error) {
	defer s.time("list")(&err)
	return s.st.List(ctx, p)
}

func (s timedStore) Abort(ctx context.Context, customer string, id int64, now time.Time) (t exporttask.Task, err error) {
	defer s.time("abort")(&err)
	return s.st.Abort(ctx, customer, id, now)
}

func (s timedStore) Dismiss(ctx context.Context, customer string, id int64) (err error) {
	defer s.time("dismiss")(&err)
	return s.st.Dismiss(ctx, customer, id)
}

func (s timedStore) ListDeliveries(ctx context.Context, customer string, id int64, after int64, limit int) (ds []taskstore.DeliveryRecord, err error) {
	defer s.time("list_deliveries")(&err)
	return s.st.ListDeliveries(ctx, customer, id, after, limit)
}

func (s timedStore) Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (d taskstore.DeliveryRecord, err error) {
	defer s.time("redeliver")(&err)
	return s.st.Redeliver(ctx, customer, id, deliveryID, now)
}

func (s timedStore) Usage(ctx context.Context, customer string) (used int64, err error) {
	defer s.time("usage")(&err)
	return s.st.Usage(ctx, customer)
}

func (s timedStore) Stats(ctx context.Context) (st taskstore.Stats, err error) {
	defer s.time("stats")(&err)
	return s.st.Stats(ctx)
}

func (s timedStore) Ping(ctx context.Context) (err error) {
	defer s.time("ping")(&err)
	return s.st.Ping(ctx)
}

// TimeWorkerStore returns st with the duration and outcome of each of its
// calls recorded in the server's metrics (the histogram
// exporttask_store_operation_duration_seconds of GET /metrics), as the
// server's own store calls are. Give it to the [worker.Runner] that runs
// beside the server, for its store calls to be measured too.
func (s *Server) TimeWorkerStore(st worker.Store) worker.Store {
	return timedWorkerStore{st, storeTimer{s.metrics}}
}

// timedWorkerStore times every call of a [worker.Store]; like timedStore,
// it embeds none.
type timedWorkerStore struct {
	st worker.Store
	storeTimer
}

func (s timedWorkerStore) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (t exporttask.Task, ok bool, err error) {
	defer s.time("claim")(&err)
	return s.st.Claim(ctx, worker, now, lease)
}

func (s timedWorkerStore) ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (t exporttask.Task, ok bool, err error) {
	defer s.time("claim")(&err)
	return s.st.ClaimSmall(ctx, worker, now, lease, maxTime)
}

func (s timedWorkerStore) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (t exporttask.Task, err error) {
	defer s.time("progress")(&err)
	return s.st.Progress(ctx, id, worker, progress, now, lease)
}

func (s timedWorkerStore) ReleaseForRetry(ctx context.Context, id int64, worker string, now time.Time, delay time.Duration) (t exporttask.Task, err error) {
	defer s.time("release_for_retry")(&err)
	return s.st.ReleaseForRetry(ctx, id, worker, now, delay)
}

func (s timedWorkerStore) Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (t exporttask.Task, err error) {
	defer s.time("finish")(&err)
	return s.st.Finish(ctx, id, worker, r, now)
}

func (s timedWorkerStore) Expire(ctx context.Context, now time.Time, limit int) (ids []int64, err error) {
	defer s.time("expire")(&err)
	return s.st.Expire(ctx, now, limit)
}

func (s timedWorkerStore) Purge(ctx context.Context, before time.Time, limit int) (ids []int64, err error) {
	defer s.time("purge")(&err)
	return s.st.Purge(ctx, before, limit)
}

func (s timedWorkerStore) ReleaseLeases(ctx context.Context, prefix string) (n int, err error) {
	defer s.time("release_leases")(&err)
	return s.st.ReleaseLeases(ctx, prefix)
}

// TimeDelivererStore returns st with each of its calls recorded in the
// server's metrics, as [Server.TimeWorkerStore] does. Give it to the
// [webhook.Deliverer] that runs beside the server.
func (s *Server) TimeDelivererStore(st webhook.Store) webhook.Store {
	return timedDelivererStore{st, storeTimer{s.metrics}}
}

// timedDelivererStore times every call of a [webhook.Store]; like
// timedStore, it embeds none.
type timedDelivererStore struct {
	st webhook.Store
	storeTimer
}

func (s timedDelivererStore) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) (ds []taskstore.Delivery, err error) {
	defer s.time("claim_deliveries")(&err)
	return s.st.ClaimDeliveries(ctx, c)
}

func (s timedDelivererStore) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) (err error) {
	defer s.time("delivery_done")(&err)
	return s.st.DeliveryDone(ctx, id, r)
}

func (s timedDelivererStore) PruneDeliveries(ctx context.Context, before time.Time, limit int) (n int, err error) {
	defer s.time("prune_deliveries")(&err)
	return s.st.PruneDeliveries(ctx, before, limit)
}
