package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testOutboxHosts: claims skip the hosts asked, and hand out at most
// PerHost deliveries per host.
func testOutboxHosts(t *testing.T, s taskstore.Store) {
	const slow, fast = "https://slow.example.com:8443/hook", "https://FAST.example.com/hook"
	for i := range 4 {
		create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i),
			hook(slow, exporttask.EventStarted), hook(fast, exporttask.EventStarted)), at(0)))
		claim(t, s, "w", at(0))
	}
	hosts := func(ds []taskstore.Delivery) map[string]int {
		n := map[string]int{}
		for _, d := range ds {
			assert.Equal(t, taskstore.DeliveryHost(d.URL), d.Host)
			assert.Equal(t, acme, d.Customer)
			n[d.Host]++
		}
		return n
	}
	claimWith := func(c taskstore.DeliveryClaim) []taskstore.Delivery {
		c.Now, c.Lease = at(time.Second), time.Minute
		ds, err := s.ClaimDeliveries(ctx(t), c)
		require.NoError(t, err)
		return ds
	}

	ds := claimWith(taskstore.DeliveryClaim{Limit: 10, PerHost: 1})
	assert.Equal(t, map[string]int{"slow.example.com:8443": 1, "fast.example.com": 1}, hosts(ds), "one per host")
	ds = claimWith(taskstore.DeliveryClaim{Limit: 10, PerHost: 2, SkipHosts: []string{"slow.example.com:8443"}})
	assert.Equal(t, map[string]int{"fast.example.com": 2}, hosts(ds), "the slow host skipped")
	ds = claimWith(taskstore.DeliveryClaim{Limit: 10})
	assert.Equal(t, map[string]int{"slow.example.com:8443": 3, "fast.example.com": 1}, hosts(ds), "no bound: the rest")
}

// testOutboxPrune: delivered and given-up deliveries are pruned once they
// ended before the cut-off; pending ones never are.
func testOutboxPrune(t *testing.T, s taskstore.Store) {
	for i := range 3 {
		create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i), hook(hookA, exporttask.EventStarted)), at(0)))
		claim(t, s, "w", at(0))
	}
	ds := claimDeliveries(t, s, at(time.Second), 10)
	require.Len(t, ds, 3)
	require.NoError(t, s.DeliveryDone(ctx(t), ds[0].ID, taskstore.DeliveryResult{Delivered: true, At: at(time.Hour)}))
	require.NoError(t, s.DeliveryDone(ctx(t), ds[1].ID, taskstore.DeliveryResult{Error: "410 Gone", At: at(2 * time.Hour)}))
	require.NoError(t, s.DeliveryDone(ctx(t), ds[2].ID, taskstore.DeliveryResult{Error: "503", NextAttempt: at(time.Minute), At: at(time.Hour)}))

	n, err := s.PruneDeliveries(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "nothing ended before the cut-off")
	n, err = s.PruneDeliveries(ctx(t), at(2*time.Hour+time.Millisecond), 1)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "limit")
	n, err = s.PruneDeliveries(ctx(t), at(100*time.Hour), 10)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the other finished one; the pending one stays")

	var left []int64
	for _, d := range ds {
		recs, err := s.ListDeliveries(ctx(t), acme, d.TaskID, 0, 10)
		require.NoError(t, err)
		for _, r := range recs {
			left = append(left, r.ID)
		}
	}
	assert.Equal(t, []int64{ds[2].ID}, left)
}

// testOutboxListAndRedeliver: a customer lists its task's deliveries with
// their outcome and asks for a new delivery of one of them.
func testOutboxListAndRedeliver(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted, exporttask.EventCompleted),
		hook(hookB, exporttask.EventCompleted)), at(0)))
	started, _, completed := runTask(t, s)
	ds := claimDeliveries(t, s, at(time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_STARTED", hookB + " TASK_COMPLETED"}, sent(ds))
	require.NoError(t, s.DeliveryDone(ctx(t), ds[0].ID, taskstore.DeliveryResult{Delivered: true, At: at(2 * time.Minute)}))
	require.NoError(t, s.DeliveryDone(ctx(t), ds[1].ID, taskstore.DeliveryResult{StatusCode: 410,
		Class: exporttask.DeliveryErrorHTTPStatus, Error: "HTTP 410 Gone", At: at(3 * time.Minute)}))

	recs, err := s.ListDeliveries(ctx(t), acme, started.ID, 0, 10)
	require.NoError(t, err)
	require.Len(t, recs, 3)
	assert.Equal(t, taskstore.DeliveryRecord{ID: ds[0].ID, TaskID: started.ID, URL: hookA, Event: exporttask.EventStarted,
		State: taskstore.DeliveryDelivered, Attempts: 1, CreatedAt: exporttask.NewTime(at(time.Second)),
		DoneAt: exporttask.NewTime(at(2 * time.Minute)), LastAttemptAt: exporttask.NewTime(at(2 * time.Minute))}, recs[0])
	assert.True(t, recs[1].LastAttemptAt.IsZero(), "never attempted")
	assert.Equal(t, taskstore.DeliveryPending, recs[1].State, "hookA's TASK_COMPLETED")
	assert.Equal(t, exporttask.NewTime(at(3*time.Second)), recs[1].NextAttemptAt)
	assert.Equal(t, taskstore.DeliveryGivenUp, recs[2].State, "hookB's TASK_COMPLETED")
	assert.Equal(t, "HTTP 410 Gone", recs[2].LastError)
	assert.Equal(t, 410, recs[2].LastStatusCode, "the status code of DeliveryDone")
	assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, recs[2].LastErrorClass, "the class of DeliveryDone")
	assert.Zero(t, recs[0].LastStatusCode, "delivered at the first attempt")
	assert.Empty(t, recs[0].LastErrorClass, "delivered at the first attempt")
	assert.Equal(t, exporttask.NewTime(at(3*time.Minute)), recs[2].DoneAt)
	page, err := s.ListDeliveries(ctx(t), acme, started.ID, recs[0].ID, 1)
	require.NoError(t, err)
	assert.Equal(t, recs[1:2], page, "paging by id")

	_, err = s.ListDeliveries(ctx(t), globex, started.ID, 0, 10)
	assert.ErrorIs(t, err, taskstore.ErrNotFound, "another customer's task")
	_, err = s.Redeliver(ctx(t), globex, started.ID, ds[1].ID, at(time.Hour))
	assert.ErrorIs(t, err, taskstore.ErrNotFound, "another customer's task")
	_, err = s.Redeliver(ctx(t), acme, started.ID, 424242, at(time.Hour))
	assert.ErrorIs(t, err, taskstore.ErrNotFound, "no such delivery")

	_, err = s.Redeliver(ctx(t), acme, started.ID, recs[1].ID, at(time.Hour))
	assert.ErrorIs(t, err, taskstore.ErrDeliveryPending, "that delivery is still pending")
	assert.ErrorIs(t, err, taskstore.ErrConflict)

	again, err := s.Redeliver(ctx(t), acme, started.ID, ds[1].ID, at(time.Hour))
	require.NoError(t, err)
	_, err = s.Redeliver(ctx(t), acme, started.ID, ds[1].ID, at(time.Hour))
	assert.ErrorIs(t, err, taskstore.ErrDeliveryPending, "its redelivery is still pending")
	assert.Greater(t, again.ID, recs[2].ID, "a new delivery, with its own id")
	assert.Equal(t, taskstore.DeliveryPending, again.State)
	assert.Equal(t, hookB, again.URL)
	next := claimDeliveries(t, s, at(time.Hour), 10)
	var got taskstore.Delivery
	for _, d := range next {
		if d.ID == again.ID {
			got = d
		}
	}
	require.Equal(t, again.ID, got.ID, "the redelivery is due at once")
	assert.Equal(t, ds[1].Payload, got.Payload, "the same body, with the event's timestamp")
	assert.True(t, got.CreatedAt.Equal(at(time.Hour)), "a redelivery's retry horizon starts when it is asked for")
	want, err := storekit.MarshalEvent(exporttask.EventCompleted, completed, hook(hookB, exporttask.EventCompleted), at(3*time.Second))
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got.Payload))

	// A failed attempt that will be retried: pending, with its time.
	require.NoError(t, s.DeliveryDone(ctx(t), again.ID, taskstore.DeliveryResult{Class: exporttask.DeliveryErrorTimeout,
		Error: "context deadline exceeded", NextAttempt: at(2 * time.Hour), At: at(90 * time.Minute)}))
	recs, err = s.ListDeliveries(ctx(t), acme, started.ID, again.ID-1, 1)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, taskstore.DeliveryPending, recs[0].State)
	assert.Equal(t, exporttask.NewTime(at(90*time.Minute)), recs[0].LastAttemptAt)
	assert.Equal(t, exporttask.NewTime(at(2*time.Hour)), recs[0].NextAttemptAt)
	assert.True(t, recs[0].DoneAt.IsZero(), "not done")
	assert.Equal(t, 1, recs[0].Attempts)
	assert.Zero(t, recs[0].LastStatusCode, "the receiver did not answer")
	assert.Equal(t, exporttask.DeliveryErrorTimeout, recs[0].LastErrorClass)
	assert.Equal(t, "context deadline exceeded", recs[0].LastError)
	assert.Empty(t, recs[0].View().LastStatusCode)
	assert.Equal(t, exporttask.DeliveryErrorTimeout, recs[0].View().LastError, "a pending delivery shows its last failure")
	n, err := s.PruneDeliveries(ctx(t), at(1000*time.Hour), 100)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the delivered and the given-up ones; the pending ones stay, whatever their last attempt")
	recs, err = s.ListDeliveries(ctx(t), acme, started.ID, 0, 10)
	require.NoError(t, err)
	assert.Len(t, recs, 2)
}
