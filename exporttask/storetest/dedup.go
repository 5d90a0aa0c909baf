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

func testDedupMergesWebhooks(t *testing.T, s taskstore.Store) {
	first := create(t, s, params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventUpdated, exporttask.EventStarted)), at(0)))

	// Same export, different description and webhooks: a duplicate.
	r := request("rec-1",
		hook(hookA, exporttask.EventCompleted, exporttask.EventStarted),
		hook(hookB, exporttask.EventCompleted, exporttask.EventUpdated),
		hook(hookC, exporttask.EventFailed))
	r.Description = "asked again"
	dup, replayed, err := s.Create(ctx(t), params(t, acme, r, at(time.Minute)))
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, first.ID, dup.ID)
	assert.Equal(t, first.Description, dup.Description, "only webhooks are merged")
	assert.Equal(t, []exporttask.Webhook{
		hook(hookA, exporttask.EventUpdated, exporttask.EventStarted, exporttask.EventCompleted),
		hook(hookB, exporttask.EventCompleted, exporttask.EventUpdated),
		hook(hookC, exporttask.EventFailed),
	}, dup.Webhook, "union of events for every URL")
	assert.Equal(t, dup, get(t, s, acme, first.ID))

	ds := drain(t, s, at(time.Minute))
	require.ElementsMatch(t, []string{hookA + " TASK_UPDATED", hookB + " TASK_UPDATED"}, sent(ds))
	for _, d := range ds {
		assertPayload(t, d, exporttask.EventUpdated, dup, at(time.Minute))
	}

	// Nothing new to merge: the task is returned, nothing is emitted.
	again, replayed, err := s.Create(ctx(t), params(t, acme, request("rec-1", hook(hookB, exporttask.EventCompleted)), at(2*time.Minute)))
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, dup, again)
	assert.Empty(t, drain(t, s, at(2*time.Minute)))

	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 1, "a duplicate stores no task")
}

func testDedupLiveStatuses(t *testing.T, s taskstore.Store) {
	// IN_PROGRESS.
	running := create(t, s, params(t, acme, request("rec-run"), at(0)))
	claim(t, s, "w1", at(time.Second))
	dup, replayed, err := s.Create(ctx(t), params(t, acme, request("rec-run", hook(hookA, exporttask.EventCompleted)), at(2*time.Second)))
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, running.ID, dup.ID)
	assert.Equal(t, exporttask.StatusInProgress, dup.Status)
	assert.Equal(t, []exporttask.Webhook{hook(hookA, exporttask.EventCompleted)}, dup.Webhook)
	// The merge kept the worker's lease.
	noClaim(t, s, at(30*time.Second))
	_, err = s.Progress(ctx(t), running.ID, "w1", 20, at(2*time.Second), time.Minute)
	require.NoError(t, err, "the worker still holds the task after a merge")

	// COMPLETED and not yet expired (retention: one day from 3s).
	finish(t, s, running.ID, "w1", at(3*time.Second))
	dup, replayed, err = s.Create(ctx(t), params(t, acme, request("rec-run"), at(23*time.Hour)))
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, running.ID, dup.ID)
	assert.Equal(t, exporttask.StatusCompleted, dup.Status)

	// Expired at Now (expiredAt is at or before it), even before the sweep
	// marks it EXPIRED: a new task.
	fresh := create(t, s, params(t, acme, request("rec-run"), at(24*time.Hour+3*time.Second)))
	assert.NotEqual(t, running.ID, fresh.ID)
	assert.Equal(t, exporttask.StatusPending, fresh.Status)
}

func testDedupNotAfterEnd(t *testing.T, s taskstore.Store) {
	// ABORTED.
	aborted := create(t, s, params(t, acme, request("rec-a"), at(0)))
	_, err := s.Abort(ctx(t), acme, aborted.ID, at(time.Second))
	require.NoError(t, err)
	again := create(t, s, params(t, acme, request("rec-a"), at(2*time.Second)))
	assert.NotEqual(t, aborted.ID, again.ID)

	// FAILED.
	failed := create(t, s, params(t, acme, request("rec-f"), at(0)))
	claimed := claim(t, s, "w1", at(3*time.Second))
	for claimed.ID != failed.ID { // rec-a's new task may come first
		finish(t, s, claimed.ID, "w1", at(3*time.Second))
		claimed = claim(t, s, "w1", at(3*time.Second))
	}
	_, err = s.Finish(ctx(t), failed.ID, "w1", taskstore.FinishParams{ErrorReason: "boom"}, at(4*time.Second))
	require.NoError(t, err)
	again = create(t, s, params(t, acme, request("rec-f"), at(5*time.Second)))
	assert.NotEqual(t, failed.ID, again.ID)

	// EXPIRED.
	expired := create(t, s, params(t, acme, request("rec-e"), at(0)))
	claimed = claim(t, s, "w2", at(6*time.Second))
	for claimed.ID != expired.ID {
		finish(t, s, claimed.ID, "w2", at(6*time.Second))
		claimed = claim(t, s, "w2", at(6*time.Second))
	}
	finish(t, s, expired.ID, "w2", at(7*time.Second))
	ids, err := s.Expire(ctx(t), at(48*time.Hour), 100)
	require.NoError(t, err)
	require.Contains(t, ids, expired.ID)
	require.Equal(t, exporttask.StatusExpired, get(t, s, acme, expired.ID).Status)
	again = create(t, s, params(t, acme, request("rec-e"), at(49*time.Hour)))
	assert.NotEqual(t, expired.ID, again.ID)
}

func testDedupScope(t *testing.T, s taskstore.Store) {
	ours := create(t, s, params(t, acme, request("rec-1"), at(0)))

	theirs := create(t, s, params(t, globex, request("rec-1"), at(0)))
	assert.NotEqual(t, ours.ID, theirs.ID, "dedup is per customer")

	other := request("rec-1")
	other.Parameters = map[string]any{"resolution": 1.0}
	different := create(t, s, params(t, acme, other, at(0)))
	assert.NotEqual(t, ours.ID, different.ID, "different parameters are a different export")

	noKey := params(t, acme, request("rec-1"), at(0))
	noKey.Identity.Dedup = ""
	unkeyed := create(t, s, noKey)
	assert.NotEqual(t, ours.ID, unkeyed.ID, "an empty dedup key matches nothing")
}

func testIdempotencyKey(t *testing.T, s taskstore.Store) {
	p := params(t, acme, request("rec-1", hook(hookA, exporttask.EventUpdated)), at(0))
	p.IdempotencyKey = "key-1"
	first := create(t, s, p)

	// Same key, same request (sent later): the first task, untouched.
	p.Now = at(time.Minute)
	replay, replayed, err := s.Create(ctx(t), p)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, first, replay)
	assert.Empty(t, drain(t, s, at(time.Minute)), "a replay merges nothing")

	// Same key, another request, the same with another description, or
	// with a webhook the task does not have: refused (422), naming the
	// key and the task; nothing stored.
	q := params(t, acme, request("rec-2", hook(hookB, exporttask.EventUpdated)), at(time.Minute))
	q.IdempotencyKey = "key-1"
	changed := p.Request
	changed.Description = "another description"
	described := params(t, acme, changed, at(time.Minute))
	described.IdempotencyKey = "key-1"
	w := params(t, acme, request("rec-1", hook(hookA, exporttask.EventUpdated), hook(hookB, exporttask.EventFailed)), at(time.Minute))
	w.IdempotencyKey = "key-1"
	for _, other := range []taskstore.CreateParams{q, described, w} {
		_, _, err = s.Create(ctx(t), other)
		var ke *taskstore.IdempotencyKeyReusedError
		require.ErrorAs(t, err, &ke)
		assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "key-1", TaskID: first.ID}, *ke)
	}
	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 1, "a refused key stores nothing")
	assert.Empty(t, drain(t, s, at(time.Minute)), "a refused key merges nothing")

	// Still replayed once the task is over.
	aborted, err := s.Abort(ctx(t), acme, first.ID, at(2*time.Minute))
	require.NoError(t, err)
	replay, replayed, err = s.Create(ctx(t), p)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, aborted, replay)

	// Keys are per customer.
	r := params(t, globex, request("rec-1"), at(0))
	r.IdempotencyKey = "key-1"
	theirs := create(t, s, r)
	assert.NotEqual(t, first.ID, theirs.ID)

	// A key given to a create that found a duplicate names that duplicate.
	d := params(t, globex, request("rec-1"), at(time.Minute))
	d.IdempotencyKey = "key-2"
	dup, replayed, err := s.Create(ctx(t), d)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, theirs.ID, dup.ID)
	_, err = s.Abort(ctx(t), globex, theirs.ID, at(2*time.Minute))
	require.NoError(t, err)
	replay, replayed, err = s.Create(ctx(t), d)
	require.NoError(t, err)
	assert.True(t, replayed, "key-2 names the task the duplicate returned, even once it is aborted")
	assert.Equal(t, theirs.ID, replay.ID)

	list, _, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 1)
}

// sized is a create of a distinct export of size bytes with quota.
func sized(t *testing.T, customer, id string, size, quota int64, now time.Time) taskstore.CreateParams {
	p := params(t, customer, request(id), now)
	p.EstimatedSize, p.Quota = size, quota
	return p
}

// docLen is the length of the document a store keeps for the task p
// creates, which counts against the quota as long as the task is stored:
// the task as created, encoded by Task.MarshalJSON without its id.
func docLen(t *testing.T, p taskstore.CreateParams) int64 {
	t.Helper()
	r := p.Request
	r.Webhook, _ = storekit.MergeWebhooks(nil, r.Webhook)
	task := exporttask.Task{CreateRequest: r, EstimatedSize: p.EstimatedSize, EstimatedTime: p.EstimatedTime,
		Status: exporttask.StatusPending, CreatedAt: exporttask.NewTime(p.Now)}
	b, err := task.MarshalJSON()
	require.NoError(t, err)
	return int64(len(b))
}

// need is what the task p creates holds against the quota while PENDING:
// its estimate and its document.
func need(t *testing.T, p taskstore.CreateParams) int64 {
	t.Helper()
	return p.EstimatedSize + docLen(t, p)
}

// fit sets p's estimate so that the task needs total bytes (see need).
func fit(t *testing.T, p taskstore.CreateParams, total int64) taskstore.CreateParams {
	t.Helper()
	for range 5 {
		for range 3 { // the estimate's digits are in the document
			p.EstimatedSize = total - docLen(t, p)
		}
		if need(t, p) == total {
			return p
		}
		// One more digit overshoots, one less falls short: lengthen the
		// document by a byte.
		p.Request.Description += "."
	}
	require.Equal(t, total, need(t, p), "no estimate makes the task need %d bytes", total)
	return p
}

func testQuota(t *testing.T, s taskstore.Store) {
	p1, p2 := sized(t, acme, "rec-1", 400, 0, at(0)), sized(t, acme, "rec-2", 400, 0, at(0))
	quota := need(t, p1) + need(t, p2) + 1000
	p1.Quota, p2.Quota = quota, quota
	create(t, s, p1)
	second := create(t, s, p2)

	p3 := sized(t, acme, "rec-3", 1000, quota, at(0))
	_, _, err := s.Create(ctx(t), p3)
	var qe *taskstore.QuotaError
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, taskstore.QuotaError{Quota: quota, Remaining: 1000, Requested: need(t, p3)}, *qe,
		"the estimate and the document count")
	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 2, "a refused create stores nothing")

	// Exactly what is left fits.
	create(t, s, fit(t, sized(t, acme, "rec-4", 0, quota, at(0)), 1000))
	_, _, err = s.Create(ctx(t), sized(t, acme, "rec-5", 1, quota, at(0)))
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, int64(0), qe.Remaining)

	// An aborted task frees its estimate; its document counts while it
	// is stored.
	_, err = s.Abort(ctx(t), acme, second.ID, at(time.Second))
	require.NoError(t, err)
	create(t, s, fit(t, sized(t, acme, "rec-6", 0, quota, at(2*time.Second)), 400))
	_, _, err = s.Create(ctx(t), sized(t, acme, "rec-7", 1, quota, at(2*time.Second)))
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, int64(0), qe.Remaining)

	// Quotas are per customer; 0 is unlimited.
	create(t, s, fit(t, sized(t, globex, "rec-7", 0, 1000, at(0)), 1000))
	create(t, s, sized(t, acme, "rec-8", 1<<40, 0, at(0)))

	// A quota below what is in use leaves nothing (never a negative rest).
	p9 := sized(t, acme, "rec-9", 1, 10, at(0))
	_, _, err = s.Create(ctx(t), p9)
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, taskstore.QuotaError{Quota: 10, Remaining: 0, Requested: need(t, p9)}, *qe)
}

func testQuotaStatuses(t *testing.T, s taskstore.Store) {
	// Four tasks estimated at 100 bytes: one stays PENDING, one
	// IN_PROGRESS, one COMPLETED (with 60 bytes of files), one FAILED.
	var docs int64
	for i := range 4 {
		p := sized(t, acme, fmt.Sprintf("rec-%d", i), 100, 0, at(0))
		docs += docLen(t, p)
		create(t, s, p)
	}
	claim(t, s, "w", at(time.Second))
	completed := claim(t, s, "w", at(time.Second))
	failed := claim(t, s, "w", at(time.Second))
	real := artifact("export.gpkg")
	real.Size = 60
	_, err := s.Finish(ctx(t), completed.ID, "w", taskstore.FinishParams{
		Artifacts: []exporttask.Artifact{real}, Retention: 24 * time.Hour}, at(2*time.Second))
	require.NoError(t, err)
	_, err = s.Finish(ctx(t), failed.ID, "w", taskstore.FinishParams{ErrorReason: "no"}, at(2*time.Second))
	require.NoError(t, err)

	// Every task counts its document; PENDING and IN_PROGRESS their
	// estimate (100 each), COMPLETED the real size of its artifacts (60):
	// 260 of 500 besides the documents. FAILED counts no estimate.
	quota := 500 + docs
	var qe *taskstore.QuotaError
	_, _, err = s.Create(ctx(t), sized(t, acme, "big", 241, quota, at(time.Hour)))
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, int64(240), qe.Remaining)

	// EXPIRED no longer counts its artifacts.
	ids, err := s.Expire(ctx(t), at(25*time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, ids, 1)
	_, _, err = s.Create(ctx(t), sized(t, acme, "big", 301, quota, at(25*time.Hour)))
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, int64(300), qe.Remaining)
	create(t, s, fit(t, sized(t, acme, "big", 0, quota, at(25*time.Hour)), 300))
}

func testQuotaAfterDedup(t *testing.T, s taskstore.Store) {
	p1 := sized(t, acme, "rec-1", 1000, 0, at(0))
	p1.Quota = need(t, p1)
	first := create(t, s, p1)
	// The quota is full, but a duplicate stores nothing new: no quota error.
	dup, replayed, err := s.Create(ctx(t), sized(t, acme, "rec-1", 1000, p1.Quota, at(time.Second)))
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, first.ID, dup.ID)

	p := sized(t, acme, "rec-2", 1000, p1.Quota, at(0))
	p.IdempotencyKey = "k"
	_, _, err = s.Create(ctx(t), p)
	var qe *taskstore.QuotaError
	require.ErrorAs(t, err, &qe)
	// The refused create did not record its key: once there is room, the
	// same key creates the task.
	_, err = s.Abort(ctx(t), acme, first.ID, at(2*time.Second))
	require.NoError(t, err)
	require.NoError(t, s.Dismiss(ctx(t), acme, first.ID))
	create(t, s, p)
}
