package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Purge removes the ABORTED, FAILED and EXPIRED tasks final at or before
// its time, oldest first, at most limit at a time, with their deliveries
// (pending ones included) and Idempotency-Keys, and frees what they held
// against the quota (their documents); it leaves every other task, and
// those final later.
func testPurge(t *testing.T, s taskstore.Store) {
	ids, err := s.Purge(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	assert.Empty(t, ids, "nothing to remove")

	hooks := hook(hookA, exporttask.Events()...)
	var docs int64
	mk := func(id, key string) exporttask.Task {
		p := params(t, acme, request(id, hooks), at(0))
		p.IdempotencyKey = key
		docs += docLen(t, p)
		return create(t, s, p)
	}
	// Final at 1s (ABORTED), 2s (FAILED), 3s (EXPIRED), and an ABORTED
	// one at 10s; a COMPLETED, a PENDING and an IN_PROGRESS one stay.
	aborted := mk("rec-aborted", "key-aborted")
	_, err = s.Abort(ctx(t), acme, aborted.ID, at(time.Second))
	require.NoError(t, err)
	failed := mk("rec-failed", "key-failed")
	claim(t, s, "w", at(0))
	_, err = s.Finish(ctx(t), failed.ID, "w", taskstore.FinishParams{ErrorReason: "no"}, at(2*time.Second))
	require.NoError(t, err)
	expired := mk("rec-expired", "")
	claim(t, s, "w", at(0))
	_, err = s.Finish(ctx(t), expired.ID, "w", taskstore.FinishParams{
		Artifacts: []exporttask.Artifact{artifact("x.gpkg")}, Retention: 3 * time.Second}, at(0))
	require.NoError(t, err)
	expiredIDs, err := s.Expire(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	require.Equal(t, []int64{expired.ID}, expiredIDs)
	late := mk("rec-late", "")
	_, err = s.Abort(ctx(t), acme, late.ID, at(10*time.Second))
	require.NoError(t, err)
	completed := mk("rec-completed", "")
	claim(t, s, "w", at(0))
	finish(t, s, completed.ID, "w", at(time.Second))
	running := mk("rec-running", "")
	claim(t, s, "w", at(0))
	pending := mk("rec-pending", "")

	ids, err = s.Purge(ctx(t), at(time.Second-time.Millisecond), 10)
	require.NoError(t, err)
	assert.Empty(t, ids, "none final before 1s")
	first, err := s.Purge(ctx(t), at(3*time.Second), 2)
	require.NoError(t, err)
	assert.Equal(t, []int64{aborted.ID, failed.ID}, first, "oldest first, at most limit")
	rest, err := s.Purge(ctx(t), at(3*time.Second), 10)
	require.NoError(t, err)
	assert.Equal(t, []int64{expired.ID}, rest, "an EXPIRED task counts from its expiredAt")

	for _, id := range []int64{aborted.ID, failed.ID, expired.ID} {
		_, err := s.Get(ctx(t), acme, id)
		assert.ErrorIs(t, err, taskstore.ErrNotFound, "task %d is gone", id)
		_, err = s.ListDeliveries(ctx(t), acme, id, 0, 10)
		assert.ErrorIs(t, err, taskstore.ErrNotFound, "task %d's deliveries are gone", id)
	}
	for _, id := range []int64{late.ID, completed.ID, running.ID, pending.ID} {
		get(t, s, acme, id)
	}
	ds := drain(t, s, at(time.Hour))
	for _, d := range ds {
		assert.NotContains(t, []int64{aborted.ID, failed.ID, expired.ID}, d.TaskID,
			"no delivery of a removed task is sent")
	}

	// The Idempotency-Key of a removed task is forgotten: the same request
	// makes a new task.
	p := params(t, acme, request("rec-aborted", hooks), at(time.Hour))
	p.IdempotencyKey = "key-aborted"
	again := create(t, s, p)
	assert.NotEqual(t, aborted.ID, again.ID)

	// What the removed tasks held is free: the documents of the three, and
	// nothing more. The tasks left hold their documents, the PENDING and
	// IN_PROGRESS ones their estimates (100 each), the COMPLETED one its
	// artifact (1234 bytes).
	_, err = s.Abort(ctx(t), acme, again.ID, at(time.Hour))
	require.NoError(t, err)
	held := docs - docLen(t, params(t, acme, request("rec-aborted", hooks), at(0))) -
		docLen(t, params(t, acme, request("rec-failed", hooks), at(0))) -
		docLen(t, params(t, acme, request("rec-expired", hooks), at(0))) +
		docLen(t, p) + 100 + 100 + 1234
	q := sized(t, acme, "rec-quota", 1, held+1, at(time.Hour))
	_, _, err = s.Create(ctx(t), q)
	var qe *taskstore.QuotaError
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, int64(1), qe.Remaining, "the removed tasks freed their documents exactly")

	ids, err = s.Purge(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	assert.Equal(t, []int64{late.ID, again.ID}, ids)
	ids, err = s.Purge(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	assert.Empty(t, ids, "removed once")
}
