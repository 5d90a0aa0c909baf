package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// usage reads the customer's storage in use.
func usage(t *testing.T, s taskstore.Store, customer string) int64 {
	t.Helper()
	used, err := s.Usage(ctx(t), customer)
	require.NoError(t, err)
	return used
}

// Usage is what a create's quota check counts: each stored task's
// document, plus the estimate of a live task or the artifacts of a
// COMPLETED one; a customer's usage counts only its own tasks, and a
// dismissed or purged task holds nothing.
func testUsage(t *testing.T, s taskstore.Store) {
	assert.Zero(t, usage(t, s, acme), "a customer without tasks uses nothing")

	p1 := sized(t, acme, "rec-1", 500, 0, at(0))
	done := create(t, s, p1)
	assert.Equal(t, 500+docLen(t, p1), usage(t, s, acme), "a PENDING task holds its estimate and document")

	other := sized(t, globex, "rec-1", 7000, 0, at(0))
	create(t, s, other)
	assert.Equal(t, 500+docLen(t, p1), usage(t, s, acme), "another customer's task is not counted")
	assert.Equal(t, 7000+docLen(t, other), usage(t, s, globex))

	// A create with a quota counts the same way.
	p2 := sized(t, acme, "rec-2", 300, 1<<30, at(0))
	aborted := create(t, s, p2)
	held := 500 + docLen(t, p1) + 300 + docLen(t, p2)
	assert.Equal(t, held, usage(t, s, acme))

	// The create's quota check reads the same number: a task needing
	// exactly the quota minus the usage fits, one byte more does not.
	p3 := sized(t, acme, "rec-3", 0, 0, at(0))
	need := docLen(t, p3) + 40
	p3.EstimatedSize, p3.Quota = 40, held+need-1
	_, _, err := s.Create(ctx(t), p3)
	var qe *taskstore.QuotaError
	require.ErrorAs(t, err, &qe, "usage %d plus %d exceeds the quota by one byte", held, need)
	assert.Equal(t, need-1, qe.Remaining, "the create's remaining quota is the quota minus Usage")
	assert.Equal(t, held, usage(t, s, acme), "a refused create holds nothing")

	claim(t, s, "w", at(time.Second))
	finish(t, s, done.ID, "w", at(2*time.Second))
	held = 1234 + docLen(t, p1) + 300 + docLen(t, p2)
	assert.Equal(t, held, usage(t, s, acme), "a COMPLETED task holds its artifacts instead of its estimate")

	_, err = s.Abort(ctx(t), acme, aborted.ID, at(3*time.Second))
	require.NoError(t, err)
	assert.Equal(t, 1234+docLen(t, p1)+docLen(t, p2), usage(t, s, acme), "an ABORTED task holds only its document")

	require.NoError(t, s.Dismiss(ctx(t), acme, done.ID))
	assert.Equal(t, docLen(t, p2), usage(t, s, acme), "a dismissed task holds nothing")

	ids, err := s.Purge(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	require.Equal(t, []int64{aborted.ID}, ids)
	assert.Zero(t, usage(t, s, acme), "a purged task holds nothing")
	assert.Equal(t, 7000+docLen(t, other), usage(t, s, globex), "the other customer's usage is untouched")
	assert.Zero(t, usage(t, s, "nobody"), "an unknown customer uses nothing")
}
