package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func testCreateGet(t *testing.T, s taskstore.Store) {
	now := at(1234567 * time.Microsecond) // sub-millisecond part is dropped
	r := request("rec-1", hook(hookA, exporttask.EventCompleted))
	r.Keywords = map[string]any{"project": "north"}
	r.ROI = square()
	p := params(t, acme, r, now)
	p.EstimatedSize, p.EstimatedTime = 4096, 90

	task, replayed, err := s.Create(ctx(t), p)
	require.NoError(t, err)
	assert.False(t, replayed)
	assert.Positive(t, task.ID)
	assert.Equal(t, exporttask.StatusPending, task.Status)
	assert.Equal(t, 0, task.Progress)
	assert.Equal(t, "rec-1", task.CatalogRecordID)
	assert.Equal(t, exporttask.DomainRaster, task.Domain)
	assert.Equal(t, exporttask.CRS4326, task.ArtifactCRS)
	assert.Equal(t, r.Description, task.Description)
	assert.Equal(t, r.Keywords, task.Keywords)
	assert.Equal(t, r.Parameters, task.Parameters)
	assert.Equal(t, r.ROI, task.ROI)
	assert.Equal(t, r.Webhook, task.Webhook)
	assert.Equal(t, int64(4096), task.EstimatedSize)
	assert.Equal(t, int64(90), task.EstimatedTime)
	assert.Equal(t, exporttask.NewTime(now), task.CreatedAt)
	assert.True(t, task.ExpiredAt.IsZero())
	assert.True(t, task.FinishedAt.IsZero())
	assert.Empty(t, task.ErrorReason)
	assert.NotNil(t, task.Artifacts, "artifacts must be an empty array, not null")
	assert.Empty(t, task.Artifacts)

	got := get(t, s, acme, task.ID)
	assert.Equal(t, task, got)

	b, err := json.Marshal(got)
	require.NoError(t, err)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(b, &fields))
	for _, f := range []string{"id", "status", "progress", "createdAt", "artifacts"} {
		assert.Contains(t, fields, f)
	}
	assert.Equal(t, []any{}, fields["artifacts"])

	second := create(t, s, params(t, acme, request("rec-2"), now))
	assert.Greater(t, second.ID, task.ID, "ids grow")
	assert.NotNil(t, second.Webhook, "webhook must be an empty array, not null")
	assert.Empty(t, drain(t, s, now), "creating a task emits no event")
}

func testGetNotFound(t *testing.T, s taskstore.Store) {
	_, err := s.Get(ctx(t), acme, 424242)
	assert.ErrorIs(t, err, taskstore.ErrNotFound)
	_, err = s.Abort(ctx(t), acme, 424242, at(0))
	assert.ErrorIs(t, err, taskstore.ErrNotFound)
}

func testCustomerScoping(t *testing.T, s taskstore.Store) {
	theirs := create(t, s, params(t, globex, request("rec-1", hook(hookA, exporttask.EventAborted)), at(0)))
	ours := create(t, s, params(t, acme, request("rec-1"), at(0)))

	_, err := s.Get(ctx(t), acme, theirs.ID)
	assert.ErrorIs(t, err, taskstore.ErrNotFound)
	_, err = s.Abort(ctx(t), acme, theirs.ID, at(time.Second))
	assert.ErrorIs(t, err, taskstore.ErrNotFound)
	assert.Equal(t, theirs, get(t, s, globex, theirs.ID), "a refused abort changes nothing")
	assert.Empty(t, drain(t, s, at(time.Minute)))

	list, more, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.False(t, more)
	require.Len(t, list, 1)
	assert.Equal(t, ours.ID, list[0].ID)

	list, _, err = s.List(ctx(t), taskstore.ListParams{Customer: "nobody", Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, list)
}

func ids(tasks []exporttask.Task) []int64 {
	out := []int64{}
	for _, task := range tasks {
		out = append(out, task.ID)
	}
	return out
}

func testListOrderAndPaging(t *testing.T, s taskstore.Store) {
	var created []int64
	for i := range 7 {
		task := create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i)), at(time.Duration(i)*time.Second)))
		created = append(created, task.ID)
		create(t, s, params(t, globex, request(fmt.Sprintf("rec-%d", i)), at(0)))
	}
	newest := []int64{created[6], created[5], created[4], created[3], created[2], created[1], created[0]}

	all, more, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 100})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Equal(t, newest, ids(all), "newest first")
	assert.Equal(t, get(t, s, acme, created[6]), all[0], "listed tasks are whole")

	page, more, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 3})
	require.NoError(t, err)
	assert.True(t, more)
	assert.Equal(t, newest[:3], ids(page))

	page, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 3, Before: page[2].ID})
	require.NoError(t, err)
	assert.True(t, more)
	assert.Equal(t, newest[3:6], ids(page))

	page, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 3, Before: page[2].ID})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Equal(t, newest[6:], ids(page))

	page, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 7})
	require.NoError(t, err)
	assert.False(t, more, "no more when the page holds exactly the rest")
	assert.Len(t, page, 7)

	page, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10, Before: created[0]})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Empty(t, page)
}

func testListStatusFilter(t *testing.T, s taskstore.Store) {
	var pending, aborted []int64
	for i := range 6 {
		task := create(t, s, params(t, acme, request(fmt.Sprintf("rec-%d", i)), at(0)))
		if i%2 == 0 {
			_, err := s.Abort(ctx(t), acme, task.ID, at(time.Second))
			require.NoError(t, err)
			aborted = append([]int64{task.ID}, aborted...)
		} else {
			pending = append([]int64{task.ID}, pending...)
		}
	}

	list, more, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Status: exporttask.StatusAborted, Limit: 10})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Equal(t, aborted, ids(list))
	for _, task := range list {
		assert.Equal(t, exporttask.StatusAborted, task.Status)
	}

	list, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Status: exporttask.StatusPending, Limit: 2})
	require.NoError(t, err)
	assert.True(t, more)
	assert.Equal(t, pending[:2], ids(list))
	list, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Status: exporttask.StatusPending, Limit: 2, Before: list[1].ID})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Equal(t, pending[2:], ids(list))

	list, more, err = s.List(ctx(t), taskstore.ListParams{Customer: acme, Status: exporttask.StatusCompleted, Limit: 10})
	require.NoError(t, err)
	assert.False(t, more)
	assert.Empty(t, list)
}

func testAbort(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1",
		hook(hookA, exporttask.EventAborted), hook(hookB, exporttask.EventCompleted)), at(0)))

	aborted, err := s.Abort(ctx(t), acme, task.ID, at(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusAborted, aborted.Status)
	assert.Equal(t, exporttask.NewTime(at(time.Minute)), aborted.FinishedAt)
	assert.True(t, aborted.ExpiredAt.IsZero())
	assert.Equal(t, aborted, get(t, s, acme, task.ID))

	ds := drain(t, s, at(time.Minute))
	require.Equal(t, []string{hookA + " TASK_ABORTED"}, sent(ds))
	assertPayload(t, ds[0], exporttask.EventAborted, aborted, at(time.Minute))

	noClaim(t, s, at(time.Hour))
}

func testAbortFinalConflict(t *testing.T, s taskstore.Store) {
	hooks := []exporttask.Webhook{hook(hookA, exporttask.Events()...)}
	task := create(t, s, params(t, acme, request("rec-1", hooks...), at(0)))
	aborted, err := s.Abort(ctx(t), acme, task.ID, at(time.Second))
	require.NoError(t, err)

	done := create(t, s, params(t, acme, request("rec-2", hooks...), at(0)))
	claim(t, s, "w1", at(time.Second))
	completed := finish(t, s, done.ID, "w1", at(2*time.Second))
	drain(t, s, at(time.Minute))

	for _, final := range []exporttask.Task{aborted, completed} {
		_, err := s.Abort(ctx(t), acme, final.ID, at(time.Hour))
		require.Error(t, err, "aborting a %s task", final.Status)
		assert.ErrorIs(t, err, taskstore.ErrConflict)
		var te *exporttask.TransitionError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, final.Status, te.From)
		assert.Equal(t, exporttask.StatusAborted, te.To)
		assert.Equal(t, final, get(t, s, acme, final.ID), "a refused abort changes nothing")
	}
	assert.Empty(t, drain(t, s, at(2*time.Hour)), "a refused abort emits nothing")
}

func testAbortLeasedTask(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1"), at(0)))
	claim(t, s, "w1", at(time.Second))
	aborted, err := s.Abort(ctx(t), acme, task.ID, at(2*time.Second))
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusAborted, aborted.Status)

	_, err = s.Progress(ctx(t), task.ID, "w1", 50, at(3*time.Second), time.Minute)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	_, err = s.Finish(ctx(t), task.ID, "w1", taskstore.FinishParams{Retention: time.Hour}, at(3*time.Second))
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	assert.Equal(t, aborted, get(t, s, acme, task.ID), "a lost lease changes nothing")
	noClaim(t, s, at(time.Hour))
}

// square is a small ROI.
func square() *exporttask.FeatureCollection {
	ring := []exporttask.Position{{34.0, 31.0}, {34.1, 31.0}, {34.1, 31.1}, {34.0, 31.1}, {34.0, 31.0}}
	return &exporttask.FeatureCollection{
		Type: "FeatureCollection",
		Features: []exporttask.Feature{{
			Type:       "Feature",
			Properties: map[string]any{"name": "square"},
			Geometry:   exporttask.NewPolygon(ring),
		}},
	}
}

func testCancelledContext(t *testing.T, s taskstore.Store) {
	task := create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.Events()...)), at(0)))
	cancelled, cancel := context.WithCancel(ctx(t))
	cancel()

	_, _, err := s.Create(cancelled, params(t, acme, request("rec-2"), at(0)))
	assert.Error(t, err)
	_, err = s.Abort(cancelled, acme, task.ID, at(time.Second))
	assert.Error(t, err)
	_, _, err = s.Claim(cancelled, "w", at(time.Second), time.Minute)
	assert.Error(t, err)

	assert.Equal(t, task, get(t, s, acme, task.ID), "a failed call changes nothing")
	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 1)
	assert.Empty(t, drain(t, s, at(time.Hour)))
}
