package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func testDismissFinal(t *testing.T, s taskstore.Store) {
	aborted := create(t, s, params(t, acme, request("rec-1"), at(0)))
	_, err := s.Abort(ctx(t), acme, aborted.ID, at(time.Second))
	require.NoError(t, err)
	done := create(t, s, params(t, acme, request("rec-2"), at(0)))
	claim(t, s, "w1", at(time.Second))
	finish(t, s, done.ID, "w1", at(2*time.Second))
	failed := create(t, s, params(t, acme, request("rec-3"), at(0)))
	claim(t, s, "w1", at(3*time.Second))
	_, err = s.Finish(ctx(t), failed.ID, "w1", taskstore.FinishParams{ErrorReason: "no"}, at(4*time.Second))
	require.NoError(t, err)
	kept := create(t, s, params(t, acme, request("rec-4"), at(0)))

	for _, id := range []int64{aborted.ID, done.ID, failed.ID} {
		assert.ErrorIs(t, s.Dismiss(ctx(t), globex, id), taskstore.ErrNotFound,
			"another customer's task is not found")
		require.NoError(t, s.Dismiss(ctx(t), acme, id))
		_, err := s.Get(ctx(t), acme, id)
		assert.ErrorIs(t, err, taskstore.ErrNotFound, "a dismissed task is gone")
		assert.ErrorIs(t, s.Dismiss(ctx(t), acme, id), taskstore.ErrNotFound,
			"a second dismissal finds nothing")
	}
	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	require.Len(t, list, 1, "only the undismissed task is listed")
	assert.Equal(t, kept.ID, list[0].ID)
	assert.ErrorIs(t, s.Dismiss(ctx(t), acme, 999999), taskstore.ErrNotFound)
}

func testDismissLiveConflict(t *testing.T, s taskstore.Store) {
	pending := create(t, s, params(t, acme, request("rec-1"), at(0)))
	running := create(t, s, params(t, acme, request("rec-2"), at(0)))
	claim(t, s, "w1", at(time.Second))
	for _, task := range []exporttask.Task{pending, running} {
		before := get(t, s, acme, task.ID)
		err := s.Dismiss(ctx(t), acme, task.ID)
		assert.ErrorIs(t, err, taskstore.ErrConflict, "dismissing a %s task", before.Status)
		assert.Equal(t, before, get(t, s, acme, task.ID), "a refused dismissal changes nothing")
	}
}

func testDismissFreesQuota(t *testing.T, s taskstore.Store) {
	p := sized(t, acme, "rec-1", 800, 0, at(0))
	quota := 1000 + docLen(t, p)
	p.Quota = quota
	done := create(t, s, p)
	claim(t, s, "w", at(time.Second))
	real := artifact("export.gpkg")
	real.Size = 700
	_, err := s.Finish(ctx(t), done.ID, "w", taskstore.FinishParams{
		Artifacts: []exporttask.Artifact{real}, Retention: 24 * time.Hour}, at(2*time.Second))
	require.NoError(t, err)

	_, _, err = s.Create(ctx(t), sized(t, acme, "rec-2", 400, quota, at(3*time.Second)))
	var qe *taskstore.QuotaError
	require.ErrorAs(t, err, &qe, "the completed task's 700 bytes and its document leave 300")
	assert.Equal(t, int64(300), qe.Remaining)

	require.NoError(t, s.Dismiss(ctx(t), acme, done.ID))
	create(t, s, fit(t, sized(t, acme, "rec-2", 0, quota, at(4*time.Second)), quota))
	_, _, err = s.Create(ctx(t), sized(t, acme, "rec-3", 1, quota, at(4*time.Second)))
	require.ErrorAs(t, err, &qe, "the dismissal freed exactly its 700 bytes and its document, never more")
	assert.Equal(t, int64(0), qe.Remaining)
}

func testDismissDropsDeliveries(t *testing.T, s taskstore.Store) {
	hooks := []exporttask.Webhook{hook(hookA, exporttask.Events()...)}
	p := params(t, acme, request("rec-1", hooks...), at(0))
	p.IdempotencyKey = "key-1"
	task := create(t, s, p)
	_, err := s.Abort(ctx(t), acme, task.ID, at(time.Second))
	require.NoError(t, err)
	other := create(t, s, params(t, acme, request("rec-2", hooks...), at(0)))
	_, err = s.Abort(ctx(t), acme, other.ID, at(time.Second))
	require.NoError(t, err)

	require.NoError(t, s.Dismiss(ctx(t), acme, task.ID))
	ds := drain(t, s, at(time.Hour))
	require.NotEmpty(t, ds, "the other task's deliveries stay")
	for _, d := range ds {
		assert.Equal(t, other.ID, d.TaskID, "no delivery of the dismissed task is sent")
	}

	// Its Idempotency-Key is forgotten with it: the same request makes a
	// new task.
	again, replayed, err := s.Create(ctx(t), p)
	require.NoError(t, err)
	assert.False(t, replayed)
	assert.NotEqual(t, task.ID, again.ID)
}
