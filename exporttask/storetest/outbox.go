package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// claimDeliveries claims what is due at now, leased for a minute.
func claimDeliveries(t *testing.T, s taskstore.Store, now time.Time, limit int) []taskstore.Delivery {
	t.Helper()
	ds, err := s.ClaimDeliveries(ctx(t), taskstore.DeliveryClaim{Now: now, Limit: limit, Lease: time.Minute})
	require.NoError(t, err)
	return ds
}

// delivered marks d delivered.
func delivered(t *testing.T, s taskstore.Store, d taskstore.Delivery) {
	t.Helper()
	require.NoError(t, s.DeliveryDone(ctx(t), d.ID, taskstore.DeliveryResult{Delivered: true}))
}

// runTask claims the only pending task at 1s, reports 50% at 2s and
// completes it at 3s; it returns the task after each step.
func runTask(t *testing.T, s taskstore.Store) (started, halfway, completed exporttask.Task) {
	t.Helper()
	started = claim(t, s, "w", at(time.Second))
	halfway, err := s.Progress(ctx(t), started.ID, "w", 50, at(2*time.Second), time.Minute)
	require.NoError(t, err)
	completed = finish(t, s, started.ID, "w", at(3*time.Second))
	return started, halfway, completed
}

func testOutboxDeliveryPerURL(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventStarted, exporttask.EventCompleted),
		hook(hookB, exporttask.EventCompleted),
		hook(hookC, exporttask.EventFailed)), at(0)))
	started, _, completed := runTask(t, s)

	ds := drain(t, s, at(time.Minute))
	perURL := map[string][]taskstore.Delivery{}
	seen := map[int64]bool{}
	for _, d := range ds {
		assert.False(t, seen[d.ID], "delivery %d handed out twice", d.ID)
		seen[d.ID] = true
		assert.Equal(t, 0, d.Attempts)
		perURL[d.URL] = append(perURL[d.URL], d)
	}
	require.Len(t, perURL[hookA], 2)
	assertPayload(t, perURL[hookA][0], exporttask.EventStarted, started, at(time.Second))
	assertPayload(t, perURL[hookA][1], exporttask.EventCompleted, completed, at(3*time.Second))
	require.Len(t, perURL[hookB], 1)
	assertPayload(t, perURL[hookB][0], exporttask.EventCompleted, completed, at(3*time.Second))
	assert.Empty(t, perURL[hookC], "hookC subscribed to no event that happened")
	assert.Len(t, ds, 3)
}

func testOutboxOrdering(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventCompleted),
		hook(hookB, exporttask.EventCompleted)), at(0)))
	runTask(t, s)

	// Only the oldest undelivered event per task and URL is claimable.
	ds := claimDeliveries(t, s, at(time.Minute), 10)
	require.ElementsMatch(t, []string{hookA + " TASK_STARTED", hookB + " TASK_COMPLETED"}, sent(ds))
	var a taskstore.Delivery
	for _, d := range ds {
		if d.URL == hookA {
			a = d
		}
	}
	// Even once the lease of the first one ended, the next waits for it.
	next := claimDeliveries(t, s, at(3*time.Minute), 10)
	require.ElementsMatch(t, []string{hookA + " TASK_STARTED", hookB + " TASK_COMPLETED"}, sent(next))

	delivered(t, s, a)
	next = claimDeliveries(t, s, at(3*time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_IN_PROGRESS"}, sent(next), "the next event once the first is delivered")
	delivered(t, s, next[0])
	next = claimDeliveries(t, s, at(3*time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_COMPLETED"}, sent(next))

	// Deliveries of another task do not wait for this one's.
	create(t, s, params(t, acme, request("rec-2", hook(hookA, exporttask.EventStarted)), at(0)))
	claim(t, s, "w", at(3*time.Minute))
	other := claimDeliveries(t, s, at(3*time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_STARTED"}, sent(other))
	assert.NotEqual(t, next[0].TaskID, other[0].TaskID)
}

func testOutboxLease(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted)), at(0)))
	claim(t, s, "w", at(0))

	ds := claimDeliveries(t, s, at(time.Second), 10) // leased until 1m1s
	require.Len(t, ds, 1)
	assert.Empty(t, claimDeliveries(t, s, at(2*time.Second), 10), "leased")
	assert.Empty(t, claimDeliveries(t, s, at(time.Minute), 10), "still leased")

	again := claimDeliveries(t, s, at(2*time.Minute), 10)
	require.Len(t, again, 1, "a delivery whose lease ended is claimed again")
	assert.Equal(t, ds[0].ID, again[0].ID)
	assert.Equal(t, 0, again[0].Attempts, "a lease that ended is no recorded attempt")

	delivered(t, s, again[0])
	assert.Empty(t, claimDeliveries(t, s, at(time.Hour), 10), "a delivered delivery is never claimed again")
}

func testOutboxRetry(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted, exporttask.EventCompleted)), at(0)))
	runTask(t, s)

	ds := claimDeliveries(t, s, at(time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_STARTED"}, sent(ds))
	require.NoError(t, s.DeliveryDone(ctx(t), ds[0].ID, taskstore.DeliveryResult{
		NextAttempt: at(5 * time.Minute), Error: "503 Service Unavailable",
	}))

	assert.Empty(t, claimDeliveries(t, s, at(4*time.Minute), 10), "not before NextAttempt, and the next one waits")

	retry := claimDeliveries(t, s, at(5*time.Minute), 10)
	require.Len(t, retry, 1)
	assert.Equal(t, ds[0].ID, retry[0].ID)
	assert.Equal(t, 1, retry[0].Attempts)
	assert.Equal(t, ds[0].Payload, retry[0].Payload)

	require.NoError(t, s.DeliveryDone(ctx(t), retry[0].ID, taskstore.DeliveryResult{
		NextAttempt: at(10 * time.Minute), Error: "timeout",
	}))
	retry = claimDeliveries(t, s, at(10*time.Minute), 10)
	require.Len(t, retry, 1)
	assert.Equal(t, 2, retry[0].Attempts)
	delivered(t, s, retry[0])

	next := claimDeliveries(t, s, at(10*time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_COMPLETED"}, sent(next))
	assert.Equal(t, 0, next[0].Attempts)
}

func testOutboxGiveUp(t *testing.T, s taskstore.Store) {
	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted, exporttask.EventCompleted)), at(0)))
	runTask(t, s)

	ds := claimDeliveries(t, s, at(time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_STARTED"}, sent(ds))
	require.NoError(t, s.DeliveryDone(ctx(t), ds[0].ID, taskstore.DeliveryResult{Error: "410 Gone"}))

	next := claimDeliveries(t, s, at(time.Minute), 10)
	require.Equal(t, []string{hookA + " TASK_COMPLETED"}, sent(next), "a given-up delivery no longer blocks the next")
	delivered(t, s, next[0])
	assert.Empty(t, claimDeliveries(t, s, at(24*time.Hour), 10), "a given-up delivery is never claimed again")
}

func testOutboxLimit(t *testing.T, s taskstore.Store) {
	const tasks = 5
	for i := range tasks {
		create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i), hook(hookA, exporttask.EventStarted)), at(0)))
		claim(t, s, "w", at(0))
	}
	first := claimDeliveries(t, s, at(time.Second), 2)
	assert.Len(t, first, 2)
	rest := claimDeliveries(t, s, at(time.Second), 10)
	assert.Len(t, rest, tasks-2, "claimed deliveries are not handed out twice")
	seen := map[int64]bool{}
	for _, d := range append(first, rest...) {
		assert.False(t, seen[d.ID])
		seen[d.ID] = true
	}
	assert.Len(t, seen, tasks)
}

func testDeliveryDoneErrors(t *testing.T, s taskstore.Store) {
	err := s.DeliveryDone(ctx(t), 424242, taskstore.DeliveryResult{Delivered: true})
	assert.ErrorIs(t, err, taskstore.ErrNotFound)

	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted)), at(0)))
	claim(t, s, "w", at(0))
	ds := claimDeliveries(t, s, at(0), 10)
	require.Len(t, ds, 1)
	delivered(t, s, ds[0])

	err = s.DeliveryDone(ctx(t), ds[0].ID, taskstore.DeliveryResult{NextAttempt: at(time.Hour)})
	assert.ErrorIs(t, err, taskstore.ErrConflict, "the outcome of a finished delivery is already recorded")
	assert.Empty(t, claimDeliveries(t, s, at(2*time.Hour), 10), "the refused outcome changed nothing")
}
