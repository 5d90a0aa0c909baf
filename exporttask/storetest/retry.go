package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testReleaseForRetry: a task given back for a retry keeps its status and
// progress, emits nothing, is claimed by no one until now+delay (sooner or
// later than its lease would have ended), and then by the next Claim, as
// one more attempt; only the worker holding the lease can give it back.
func testReleaseForRetry(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventUpdated)), at(0)))
	pending := create(t, s, params(t, globex, request("rec-2"), at(0)))
	_, err := s.ReleaseForRetry(ctx(t), pending.ID, "w1", at(0), time.Second)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost, "a PENDING task is leased to nobody")
	_, err = s.ReleaseForRetry(ctx(t), 424242, "w1", at(0), time.Second)
	assert.ErrorIs(t, err, taskstore.ErrNotFound)
	_, err = s.Abort(ctx(t), globex, pending.ID, at(0))
	require.NoError(t, err) // out of the queue

	require.Equal(t, task.ID, claim(t, s, "w1", at(0)).ID) // leased until 1m
	p30, err := s.Progress(ctx(t), task.ID, "w1", 30, at(time.Second), time.Minute)
	require.NoError(t, err) // until 1m1s
	drain(t, s, at(time.Second))
	_, err = s.ReleaseForRetry(ctx(t), task.ID, "w2", at(2*time.Second), time.Second)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost, "another worker's lease")
	_, err = s.ReleaseForRetry(ctx(t), task.ID, "w1", at(2*time.Second), -time.Second)
	assert.Error(t, err, "a negative delay")
	assert.Equal(t, p30, get(t, s, acme, task.ID), "the refused calls changed nothing")

	// A delay past the lease's end holds the task longer.
	later, err := s.ReleaseForRetry(ctx(t), task.ID, "w1", at(2*time.Second), 5*time.Minute)
	require.NoError(t, err) // until 5m2s
	assert.Equal(t, p30, later, "status, progress and attempts as they were")
	noClaim(t, s, at(2*time.Minute))

	// A delay before the lease's end gives it up sooner.
	released, err := s.ReleaseForRetry(ctx(t), task.ID, "w1", at(3*time.Second), 10*time.Second)
	require.NoError(t, err) // until 13s
	assert.Equal(t, exporttask.StatusInProgress, released.Status)
	assert.Equal(t, 30, released.Progress)
	assert.Equal(t, 1, released.Attempts)
	assert.Equal(t, released, get(t, s, acme, task.ID))
	assert.Empty(t, drain(t, s, at(3*time.Second)), "giving a task back emits no event")
	noClaim(t, s, at(13*time.Second)) // a lease ending at now has not ended before now

	again := claim(t, s, "w2", at(13*time.Second+time.Millisecond))
	assert.Equal(t, task.ID, again.ID, "claimed again once the delay is over")
	assert.Equal(t, exporttask.StatusInProgress, again.Status)
	assert.Equal(t, 30, again.Progress, "the progress is kept")
	assert.Equal(t, 2, again.Attempts, "one more attempt")
	assert.Empty(t, drain(t, s, at(14*time.Second)), "a re-claim is no status change: no event")
	_, err = s.ReleaseForRetry(ctx(t), task.ID, "w1", at(14*time.Second), time.Second)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost, "the first worker's lease is over")
}
