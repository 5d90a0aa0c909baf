package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// sizedTask is a new task of customer estimated to take secs seconds.
func sizedTask(t *testing.T, s taskstore.Store, customer, record string, secs int64) exporttask.Task {
	t.Helper()
	p := params(t, customer, request(record), at(0))
	p.EstimatedTime = secs
	return create(t, s, p)
}

// claimSmall claims a task of at most maxTime; ok false when none.
func claimSmall(t *testing.T, s taskstore.Store, worker string, now time.Time, maxTime time.Duration) (exporttask.Task, bool) {
	t.Helper()
	task, ok, err := s.ClaimSmall(ctx(t), worker, now, time.Minute, maxTime)
	require.NoError(t, err)
	return task, ok
}

// testClaimSmall: ClaimSmall takes only the tasks estimated at most its
// limit (a task without an estimate counts as 0 s), customers taking
// turns among those that have one, each customer's oldest small task
// first; the large tasks stay for Claim, which takes any task.
func testClaimSmall(t *testing.T, s taskstore.Store) {
	bigA := sizedTask(t, s, acme, "rec-big-a", 3600)
	smallA := sizedTask(t, s, acme, "rec-small-a", 30)
	bigG := sizedTask(t, s, globex, "rec-big-g", 31)
	smallG := sizedTask(t, s, globex, "rec-small-g", 0)
	edgeA := sizedTask(t, s, acme, "rec-edge-a", 30)

	var got []int64
	for i := range 3 {
		task, ok := claimSmall(t, s, "small", at(time.Second), 30*time.Second+999*time.Millisecond)
		require.True(t, ok, "small claim %d: a small task was expected", i)
		assert.Equal(t, exporttask.StatusInProgress, task.Status)
		assert.Equal(t, 1, task.Attempts)
		got = append(got, task.ID)
	}
	assert.Equal(t, []int64{smallA.ID, smallG.ID, edgeA.ID}, got,
		"the small tasks, customers taking turns, each one's oldest first; 30 s is within a 30.999 s limit")
	task, ok := claimSmall(t, s, "small", at(time.Second), 30*time.Second)
	assert.False(t, ok, "only tasks above 30 s are left, got task %d", task.ID)

	assert.ElementsMatch(t, []int64{bigA.ID, bigG.ID}, []int64{
		claim(t, s, "w1", at(time.Second)).ID, claim(t, s, "w2", at(time.Second)).ID,
	}, "Claim takes the large tasks")
	noClaim(t, s, at(time.Second))
}
