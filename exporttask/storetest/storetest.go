package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Run runs the conformance suite, one subtest per behaviour of the
// [taskstore.Store] contract. open must return a fresh, empty store for
// the subtest t; Run closes it when the subtest ends (register any further
// clean-up, such as dropping a database, with t.Cleanup inside open).
func Run(t *testing.T, open func(t *testing.T) taskstore.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s taskstore.Store)
	}{
		{"Ping", testPing},
		{"PingWrites", testPingWrites},
		{"ReleaseLeases", testReleaseLeases},
		{"CancelledContext", testCancelledContext},
		{"CreateGet", testCreateGet},
		{"GetNotFound", testGetNotFound},
		{"CustomerScoping", testCustomerScoping},
		{"ListOrderAndPaging", testListOrderAndPaging},
		{"ListStatusFilter", testListStatusFilter},
		{"Abort", testAbort},
		{"AbortFinalConflict", testAbortFinalConflict},
		{"AbortLeasedTask", testAbortLeasedTask},
		{"DismissFinal", testDismissFinal},
		{"DismissLiveConflict", testDismissLiveConflict},
		{"DismissFreesQuota", testDismissFreesQuota},
		{"DismissDropsDeliveries", testDismissDropsDeliveries},
		{"DedupMergesWebhooks", testDedupMergesWebhooks},
		{"DedupLiveStatuses", testDedupLiveStatuses},
		{"DedupNotAfterEnd", testDedupNotAfterEnd},
		{"DedupScope", testDedupScope},
		{"DedupLateSubscriber", testDedupLateSubscriber},
		{"DedupLateSubscriberInProgress", testDedupLateSubscriberInProgress},
		{"DedupMergeLimit", testDedupMergeLimit},
		{"IdempotencyKey", testIdempotencyKey},
		{"IdempotencyKeyDataVersion", testIdempotencyKeyDataVersion},
		{"Stats", testStats},
		{"Quota", testQuota},
		{"QuotaStatuses", testQuotaStatuses},
		{"QuotaAfterDedup", testQuotaAfterDedup},
		{"Usage", testUsage},
		{"ConcurrentCreates", testConcurrentCreates},
		{"ConcurrentQuota", testConcurrentQuota},
		{"ConcurrentDedup", testConcurrentDedup},
		{"ConcurrentSameDedupKey", testConcurrentSameDedupKey},
		{"ConcurrentSameIdempotencyKey", testConcurrentSameIdempotencyKey},
		{"ConcurrentIdempotencyKeyReuse", testConcurrentIdempotencyKeyReuse},
		{"ConcurrentUsage", testConcurrentUsage},
		{"ClaimOrder", testClaimOrder},
		{"ClaimTurns", testClaimTurns},
		{"ClaimTurnsRotate", testClaimTurnsRotate},
		{"ClaimSmall", testClaimSmall},
		{"ConcurrentClaims", testConcurrentClaims},
		{"LeaseExpiry", testLeaseExpiry},
		{"ProgressExtendsLease", testProgressExtendsLease},
		{"Progress", testProgress},
		{"ReleaseForRetry", testReleaseForRetry},
		{"FinishCompleted", testFinishCompleted},
		{"FinishFailed", testFinishFailed},
		{"Expire", testExpire},
		{"Purge", testPurge},
		{"OutboxDeliveryPerURL", testOutboxDeliveryPerURL},
		{"OutboxOrdering", testOutboxOrdering},
		{"OutboxLease", testOutboxLease},
		{"OutboxRetry", testOutboxRetry},
		{"OutboxGiveUp", testOutboxGiveUp},
		{"OutboxLimit", testOutboxLimit},
		{"DeliveryDoneErrors", testDeliveryDoneErrors},
		{"OutboxHosts", testOutboxHosts},
		{"OutboxPrune", testOutboxPrune},
		{"OutboxListAndRedeliver", testOutboxListAndRedeliver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			require.NotNil(t, s, "open returned no store")
			t.Cleanup(func() { assert.NoError(t, s.Close(), "closing the store") })
			tc.fn(t, s)
		})
	}
}

// The customers of the suite.
const (
	acme   = "acme"
	globex = "globex"
)

// Webhook receiver URLs of the suite.
const (
	hookA = "https://hooks.example.com/a"
	hookB = "https://hooks.example.com/b"
	hookC = "https://hooks.example.com/c"
)

// at is the suite's clock: a fixed instant plus d.
func at(d time.Duration) time.Time {
	return time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC).Add(d)
}

func ctx(t *testing.T) context.Context { return t.Context() }

// hook subscribes url to events.
func hook(url string, events ...exporttask.Event) exporttask.Webhook {
	return exporttask.Webhook{URL: url, Events: events}
}

// request asks for an export of catalog record id; requests with different
// ids are not duplicates of each other.
func request(id string, hooks ...exporttask.Webhook) exporttask.CreateRequest {
	return exporttask.CreateRequest{
		CatalogRecordID: id,
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		Description:     "conformance " + id,
		Parameters:      map[string]any{"resolution": 0.5, "format": "GPKG"},
		Webhook:         hooks,
	}
}

// params is a create of r by customer at now, with its dedup key and an
// estimated size of 100 bytes.
func params(t *testing.T, customer string, r exporttask.CreateRequest, now time.Time) taskstore.CreateParams {
	t.Helper()
	id, err := taskstore.Identify(r, "")
	require.NoError(t, err)
	return taskstore.CreateParams{
		Customer:      customer,
		Request:       r,
		EstimatedSize: 100,
		EstimatedTime: 60,
		Identity:      id,
		Now:           now,
	}
}

// create stores a new task and requires that it is new.
func create(t *testing.T, s taskstore.Store, p taskstore.CreateParams) exporttask.Task {
	t.Helper()
	task, replayed, err := s.Create(ctx(t), p)
	require.NoError(t, err)
	require.False(t, replayed, "a new task was expected")
	return task
}

// get reads a task and requires that it exists.
func get(t *testing.T, s taskstore.Store, customer string, id int64) exporttask.Task {
	t.Helper()
	task, err := s.Get(ctx(t), customer, id)
	require.NoError(t, err)
	return task
}

// claim requires that worker claims a task at now, leased for a minute.
func claim(t *testing.T, s taskstore.Store, worker string, now time.Time) exporttask.Task {
	t.Helper()
	task, ok, err := s.Claim(ctx(t), worker, now, time.Minute)
	require.NoError(t, err)
	require.True(t, ok, "a claimable task was expected")
	return task
}

// noClaim requires that nothing is claimable at now.
func noClaim(t *testing.T, s taskstore.Store, now time.Time) {
	t.Helper()
	task, ok, err := s.Claim(ctx(t), "idle-worker", now, time.Minute)
	require.NoError(t, err)
	assert.False(t, ok, "nothing should be claimable, got task %d (%s)", task.ID, task.Status)
}

// finish completes a task leased to worker, with one artifact and a
// retention of a day.
func finish(t *testing.T, s taskstore.Store, id int64, worker string, now time.Time) exporttask.Task {
	t.Helper()
	task, err := s.Finish(ctx(t), id, worker, taskstore.FinishParams{
		Artifacts: []exporttask.Artifact{artifact("export.gpkg")},
		Retention: 24 * time.Hour,
	}, now)
	require.NoError(t, err)
	return task
}

func artifact(name string) exporttask.Artifact {
	return exporttask.Artifact{
		Name:   name,
		Type:   exporttask.ArtifactGPKG,
		Size:   1234,
		URL:    "https://downloads.example.com/" + name,
		SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	}
}

// drain delivers everything the outbox holds at now, in the order the
// store hands it out, and returns what it delivered.
func drain(t *testing.T, s taskstore.Store, now time.Time) []taskstore.Delivery {
	t.Helper()
	var all []taskstore.Delivery
	for range 1000 {
		ds, err := s.ClaimDeliveries(ctx(t), taskstore.DeliveryClaim{Now: now, Limit: 100, Lease: time.Minute})
		require.NoError(t, err)
		if len(ds) == 0 {
			return all
		}
		for _, d := range ds {
			require.NoError(t, s.DeliveryDone(ctx(t), d.ID, taskstore.DeliveryResult{Delivered: true}))
		}
		all = append(all, ds...)
	}
	require.FailNow(t, "the outbox never ran dry")
	return nil
}

// sent names deliveries as "URL EVENT", in order.
func sent(ds []taskstore.Delivery) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.URL+" "+string(d.Event))
	}
	return out
}

// assertPayload checks that d carries exactly the event ev of task at now,
// with the thin payload of d.URL's own subscription.
func assertPayload(t *testing.T, d taskstore.Delivery, ev exporttask.Event, task exporttask.Task, now time.Time) {
	t.Helper()
	var sub exporttask.Webhook
	for _, w := range storekit.SubscriptionsTo(task, ev) {
		if w.URL == d.URL {
			sub = w
		}
	}
	require.NotEmpty(t, sub.URL, "%s is not subscribed to %s", d.URL, ev)
	want, err := storekit.MarshalEvent(ev, task, sub, now)
	require.NoError(t, err)
	assert.Equal(t, ev, d.Event)
	assert.Equal(t, task.ID, d.TaskID)
	assert.JSONEq(t, string(want), string(d.Payload))
	assert.True(t, d.CreatedAt.Equal(now), "delivery createdAt %v, want %v", d.CreatedAt, now)
}

func testPing(t *testing.T, s taskstore.Store) {
	assert.NoError(t, s.Ping(ctx(t)))
}
