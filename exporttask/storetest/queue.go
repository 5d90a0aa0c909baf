package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func testClaimOrder(t *testing.T, s taskstore.Store) {
	noClaim(t, s, at(0))
	first := create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted)), at(0)))
	second := create(t, s, params(t, globex, request("rec-2"), at(0)))
	third := create(t, s, params(t, acme, request("rec-3"), at(0)))
	_, err := s.Abort(ctx(t), acme, third.ID, at(time.Second))
	require.NoError(t, err)

	got := claim(t, s, "w1", at(2*time.Second))
	assert.Equal(t, first.ID, got.ID, "oldest first")
	assert.Equal(t, exporttask.StatusInProgress, got.Status)
	assert.Equal(t, got, get(t, s, acme, first.ID))
	ds := drain(t, s, at(2*time.Second))
	require.Equal(t, []string{hookA + " TASK_STARTED"}, sent(ds))
	assertPayload(t, ds[0], exporttask.EventStarted, got, at(2*time.Second))

	got = claim(t, s, "w2", at(2*time.Second))
	assert.Equal(t, second.ID, got.ID, "any customer's task")
	noClaim(t, s, at(3*time.Second)) // the aborted one is never claimed
}

func testLeaseExpiry(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventStarted, exporttask.EventInProgress)), at(0)))
	assert.Zero(t, task.Attempts, "no attempt before the first claim")
	first := claim(t, s, "w1", at(0)) // leased until 1m
	assert.Equal(t, 1, first.Attempts, "a claim counts an attempt")
	drain(t, s, at(0))

	noClaim(t, s, at(30*time.Second))
	noClaim(t, s, at(59*time.Second))
	noClaim(t, s, at(time.Minute)) // a lease ending at now has not ended before now

	again := claim(t, s, "w2", at(2*time.Minute))
	assert.Equal(t, task.ID, again.ID, "a task whose lease ended is claimed again")
	assert.Equal(t, exporttask.StatusInProgress, again.Status)
	assert.Equal(t, 2, again.Attempts, "a re-claim counts another attempt")
	assert.Equal(t, 2, get(t, s, acme, task.ID).Attempts, "the counter is stored")
	assert.Empty(t, drain(t, s, at(2*time.Minute)), "a re-claim is no status change: no event")

	_, err := s.Progress(ctx(t), task.ID, "w1", 40, at(2*time.Minute), time.Minute)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	_, err = s.Finish(ctx(t), task.ID, "w1", taskstore.FinishParams{Retention: time.Hour}, at(2*time.Minute))
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	assert.Equal(t, again, get(t, s, acme, task.ID), "the old worker changed nothing")
	assert.Empty(t, drain(t, s, at(3*time.Minute)))

	got, err := s.Progress(ctx(t), task.ID, "w2", 40, at(2*time.Minute), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 40, got.Progress)
	noClaim(t, s, at(2*time.Minute+30*time.Second))
}

func testProgressExtendsLease(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1"), at(0)))
	claim(t, s, "w1", at(0)) // until 1m
	_, err := s.Progress(ctx(t), task.ID, "w1", 10, at(50*time.Second), time.Minute)
	require.NoError(t, err) // until 1m50s
	noClaim(t, s, at(90*time.Second))
	again := claim(t, s, "w2", at(2*time.Minute))
	assert.Equal(t, task.ID, again.ID)

	// A worker whose lease ended but whose task nobody took keeps it.
	other := create(t, s, params(t, acme, request("rec-2"), at(0)))
	assert.Equal(t, other.ID, claim(t, s, "w3", at(150*time.Second)).ID)
	got, err := s.Progress(ctx(t), other.ID, "w3", 20, at(10*time.Minute), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 20, got.Progress)
}

func testProgress(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventInProgress), hook(hookB, exporttask.EventCompleted)), at(0)))

	_, err := s.Progress(ctx(t), task.ID, "w1", 10, at(time.Second), time.Minute)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost, "a PENDING task is leased to nobody")
	_, err = s.Progress(ctx(t), 424242, "w1", 10, at(time.Second), time.Minute)
	assert.ErrorIs(t, err, taskstore.ErrNotFound)

	claim(t, s, "w1", at(time.Second))
	_, err = s.Progress(ctx(t), task.ID, "w2", 10, at(time.Second), time.Minute)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost, "another worker's lease")

	p10, err := s.Progress(ctx(t), task.ID, "w1", 10, at(2*time.Second), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 10, p10.Progress)
	assert.Equal(t, exporttask.StatusInProgress, p10.Status)
	assert.Equal(t, p10, get(t, s, acme, task.ID))

	same, err := s.Progress(ctx(t), task.ID, "w1", 10, at(3*time.Second), time.Minute)
	require.NoError(t, err)
	assert.Equal(t, p10, same)

	p55, err := s.Progress(ctx(t), task.ID, "w1", 55, at(4*time.Second), time.Minute)
	require.NoError(t, err)

	_, err = s.Progress(ctx(t), task.ID, "w1", 101, at(5*time.Second), time.Minute)
	assert.Error(t, err, "progress is a percentage")
	assert.Equal(t, p55, get(t, s, acme, task.ID))

	ds := drain(t, s, at(time.Minute))
	require.Equal(t, []string{hookA + " TASK_IN_PROGRESS", hookA + " TASK_IN_PROGRESS"}, sent(ds),
		"one event per change of progress")
	assertPayload(t, ds[0], exporttask.EventInProgress, p10, at(2*time.Second))
	assertPayload(t, ds[1], exporttask.EventInProgress, p55, at(4*time.Second))
}

func testFinishCompleted(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventCompleted, exporttask.EventFailed)), at(0)))
	claim(t, s, "w1", at(time.Second))
	_, err := s.Progress(ctx(t), task.ID, "w1", 60, at(2*time.Second), time.Minute)
	require.NoError(t, err)

	_, err = s.Finish(ctx(t), task.ID, "w2", taskstore.FinishParams{}, at(3*time.Second))
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	_, err = s.Finish(ctx(t), 424242, "w1", taskstore.FinishParams{}, at(3*time.Second))
	assert.ErrorIs(t, err, taskstore.ErrNotFound)

	arts := []exporttask.Artifact{artifact("a.gpkg"), artifact("legend.png")}
	done, err := s.Finish(ctx(t), task.ID, "w1", taskstore.FinishParams{Artifacts: arts, Retention: 72 * time.Hour}, at(3*time.Second))
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, done.Status)
	assert.Equal(t, 100, done.Progress)
	assert.Equal(t, arts, done.Artifacts)
	assert.Equal(t, exporttask.NewTime(at(3*time.Second)), done.FinishedAt)
	assert.Equal(t, exporttask.NewTime(at(3*time.Second+72*time.Hour)), done.ExpiredAt)
	assert.Empty(t, done.ErrorReason)
	assert.Equal(t, done, get(t, s, acme, task.ID))

	ds := drain(t, s, at(time.Minute))
	require.Equal(t, []string{hookA + " TASK_COMPLETED"}, sent(ds))
	assertPayload(t, ds[0], exporttask.EventCompleted, done, at(3*time.Second))

	// The lease is released: the task is not claimed again, and a second
	// Finish is refused.
	noClaim(t, s, at(time.Hour))
	_, err = s.Finish(ctx(t), task.ID, "w1", taskstore.FinishParams{ErrorReason: "late"}, at(time.Hour))
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	assert.Equal(t, done, get(t, s, acme, task.ID))
}

func testFinishFailed(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventCompleted, exporttask.EventFailed)), at(0)))
	claim(t, s, "w1", at(time.Second))
	_, err := s.Progress(ctx(t), task.ID, "w1", 30, at(2*time.Second), time.Minute)
	require.NoError(t, err)

	failed, err := s.Finish(ctx(t), task.ID, "w1", taskstore.FinishParams{
		ErrorReason: "the source is unreachable", Retention: time.Hour,
	}, at(3*time.Second))
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusFailed, failed.Status)
	assert.Equal(t, "the source is unreachable", failed.ErrorReason)
	assert.Equal(t, 30, failed.Progress)
	assert.Empty(t, failed.Artifacts)
	assert.NotNil(t, failed.Artifacts)
	assert.Equal(t, exporttask.NewTime(at(3*time.Second)), failed.FinishedAt)
	assert.True(t, failed.ExpiredAt.IsZero(), "only a COMPLETED task expires")
	assert.Equal(t, failed, get(t, s, acme, task.ID))

	ds := drain(t, s, at(time.Minute))
	require.Equal(t, []string{hookA + " TASK_FAILED"}, sent(ds))
	assertPayload(t, ds[0], exporttask.EventFailed, failed, at(3*time.Second))
	noClaim(t, s, at(time.Hour))
}

func testExpire(t *testing.T, s taskstore.Store) {
	ids, err := s.Expire(ctx(t), at(0), 10)
	require.NoError(t, err)
	assert.Empty(t, ids)

	hooks := hook(hookA, exporttask.EventExpired)
	var done []exporttask.Task
	for i, retention := range []time.Duration{time.Hour, time.Hour, 2 * time.Hour} {
		task := create(t, s, params(t, acme, request(string(rune('a'+i)), hooks), at(0)))
		claim(t, s, "w", at(0))
		finished, err := s.Finish(ctx(t), task.ID, "w", taskstore.FinishParams{
			Artifacts: []exporttask.Artifact{artifact("x.gpkg"), artifact("y.json")},
			Retention: retention,
		}, at(0))
		require.NoError(t, err)
		done = append(done, finished)
	}
	pending := create(t, s, params(t, acme, request("pending", hooks), at(0)))

	ids, err = s.Expire(ctx(t), at(time.Hour-time.Millisecond), 10)
	require.NoError(t, err)
	assert.Empty(t, ids, "not before expiredAt")

	first, err := s.Expire(ctx(t), at(time.Hour), 1)
	require.NoError(t, err)
	assert.Len(t, first, 1, "at most limit")
	rest, err := s.Expire(ctx(t), at(time.Hour), 10)
	require.NoError(t, err)
	assert.Len(t, rest, 1, "the rest that is due, expiredAt at now included")
	assert.ElementsMatch(t, []int64{done[0].ID, done[1].ID}, append(first, rest...), "the ids of the expired tasks")

	var expired []exporttask.Task
	for _, task := range done[:2] {
		got := get(t, s, acme, task.ID)
		assert.Equal(t, exporttask.StatusExpired, got.Status)
		assert.Equal(t, task.FinishedAt, got.FinishedAt)
		assert.Equal(t, task.ExpiredAt, got.ExpiredAt)
		require.Len(t, got.Artifacts, 2)
		for i, a := range got.Artifacts {
			assert.Empty(t, a.URL, "an expired artifact has no URL")
			want := task.Artifacts[i]
			want.URL = ""
			assert.Equal(t, want, a, "the rest of the artifact stays")
		}
		expired = append(expired, got)
	}
	assert.Equal(t, exporttask.StatusCompleted, get(t, s, acme, done[2].ID).Status)
	assert.Equal(t, exporttask.StatusPending, get(t, s, acme, pending.ID).Status)

	ds := drain(t, s, at(time.Hour))
	require.Equal(t, []string{hookA + " TASK_EXPIRED", hookA + " TASK_EXPIRED"}, sent(ds))
	byTask := map[int64]taskstore.Delivery{ds[0].TaskID: ds[0], ds[1].TaskID: ds[1]}
	for _, task := range expired {
		assertPayload(t, byTask[task.ID], exporttask.EventExpired, task, at(time.Hour))
	}

	ids, err = s.Expire(ctx(t), at(3*time.Hour), 10)
	require.NoError(t, err)
	assert.Equal(t, []int64{done[2].ID}, ids)
	ids, err = s.Expire(ctx(t), at(3*time.Hour), 10)
	require.NoError(t, err)
	assert.Empty(t, ids, "an EXPIRED task does not expire again")
}
