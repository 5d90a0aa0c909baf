package server_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

func taskPath(id int64) string { return "/export-tasks/" + strconv.FormatInt(id, 10) }

// assertGone checks that task id answers 404 to GET.
func (h *harness) assertGone(t *testing.T, id int64) {
	t.Helper()
	resp, body := h.do(t, request{method: http.MethodGet, path: taskPath(id), key: h.Key})
	assertProblem(t, resp, body, http.StatusNotFound, typeBlank)
}

func TestDeleteAbortsALiveTaskThenDismissesIt(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	task := h.create(t, h.sampleRequest(1))

	resp, body := h.do(t, request{method: http.MethodDelete, path: taskPath(task.ID), key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	assert.Equal(t, exporttask.StatusAborted, decodeTask(t, body).Status)
	got, err := h.client.Get(t.Context(), task.ID)
	require.NoError(t, err, "an aborted task stays until dismissed")
	assert.Equal(t, exporttask.StatusAborted, got.Status)

	// Another customer's DELETE finds nothing and changes nothing.
	resp, body = h.do(t, request{method: http.MethodDelete, path: taskPath(task.ID), key: otherKey})
	assertProblem(t, resp, body, http.StatusNotFound, typeBlank)
	_, err = h.client.Get(t.Context(), task.ID)
	require.NoError(t, err)

	// The second DELETE dismisses it; a third finds nothing.
	resp, body = h.do(t, request{method: http.MethodDelete, path: taskPath(task.ID), key: h.Key})
	require.Equal(t, http.StatusNoContent, resp.StatusCode, "%s", body)
	assert.Empty(t, body)
	h.assertGone(t, task.ID)
	resp, body = h.do(t, request{method: http.MethodDelete, path: taskPath(task.ID), key: h.Key})
	assertProblem(t, resp, body, http.StatusNotFound, typeBlank)
}

func TestDeleteDismissesACompletedTaskAndFreesItsQuota(t *testing.T) {
	// The quota fits one pending task but not another beside the first's
	// files: blocked is the request with the larger estimate.
	first, blocked := testkit.SampleRequestTo(1, "http://127.0.0.1/sink"), testkit.SampleRequestTo(2, "http://127.0.0.1/sink")
	sim := simulate.New(simulate.Config{})
	e1, err := sim.Estimate(t.Context(), first)
	require.NoError(t, err)
	e2, err := sim.Estimate(t.Context(), blocked)
	require.NoError(t, err)
	n1, n2 := 1, 2
	if e1.Size > e2.Size {
		n1, n2, e2 = 2, 1, e1
	}
	// The blocked request fits alone: its estimate and its document (with
	// room for the harness's longer webhook URL).
	quota := e2.Size + 64 + docBytes(t, exporttask.Task{CreateRequest: testkit.SampleRequestTo(n2, "http://127.0.0.1/sink"),
		EstimatedSize: e2.Size, EstimatedTime: e2.Time, Status: exporttask.StatusPending, CreatedAt: exporttask.NewTime(time.Now())})
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond), exporttasktest.WithQuota(quota))
	done := h.completedTask(t, n1)

	_, err = h.client.Create(t.Context(), h.sampleRequest(n2))
	var p *exporttask.Problem
	require.ErrorAs(t, err, &p, "the completed task's files hold part of the quota")
	require.Equal(t, 509, p.Status)

	// Its files download before the dismissal and are gone after.
	files, err := h.Artifacts.List(t.Context(), artifactkey.Prefix(done.ID))
	require.NoError(t, err)
	require.Len(t, files, len(done.Artifacts))
	path := h.pathOf(t, done.Artifacts[0])
	resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)

	_, err = h.client.Abort(t.Context(), done.ID)
	require.ErrorIs(t, err, client.ErrDismissed)

	h.assertGone(t, done.ID)
	resp, _ = h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "the artifact URL of a dismissed task")
	files, err = h.Artifacts.List(t.Context(), artifactkey.Prefix(done.ID))
	require.NoError(t, err)
	assert.Empty(t, files, "the dismissal deleted the files")

	_, err = h.client.Create(t.Context(), h.sampleRequest(n2))
	require.NoError(t, err, "the dismissal freed the quota")
}

func TestDeleteDismissesAFailedTask(t *testing.T) {
	sim := simulate.New(simulate.Config{Duration: 10 * time.Millisecond})
	h := newHarness(t, exporttasktest.WithExporter(failingExporter{Simulator: sim, permanent: true}))
	task := h.create(t, h.sampleRequest(1))
	require.Equal(t, exporttask.StatusFailed, h.waitFinal(t, task.ID).Status)

	resp, body := h.do(t, request{method: http.MethodDelete, path: taskPath(task.ID), key: otherKey})
	assertProblem(t, resp, body, http.StatusNotFound, typeBlank)

	resp, body = h.do(t, request{method: http.MethodDelete, path: taskPath(task.ID), key: h.Key})
	require.Equal(t, http.StatusNoContent, resp.StatusCode, "%s", body)
	h.assertGone(t, task.ID)
	files, err := h.Artifacts.List(t.Context(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	assert.Empty(t, files)
}

// failingDeletes is an artifact store whose DeletePrefix fails while fail
// is set.
type failingDeletes struct {
	artifact.Store
	fail *atomic.Bool
}

func (f failingDeletes) DeletePrefix(ctx context.Context, prefix string) error {
	if f.fail.Load() {
		return errors.New("disk unavailable")
	}
	return f.Store.DeletePrefix(ctx, prefix)
}

// TestDismissDeletesFilesFirst: when deleting the files fails, the task
// stays (500), and repeating the DELETE finishes the dismissal.
func TestDismissDeletesFilesFirst(t *testing.T) {
	fs, err := filestore.Open(t.Context(), t.TempDir())
	require.NoError(t, err)
	fail := &atomic.Bool{}
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond),
		exporttasktest.WithArtifacts(failingDeletes{Store: fs, fail: fail}))
	done := h.completedTask(t, 1)

	fail.Store(true)
	resp, body := h.do(t, request{method: http.MethodDelete, path: taskPath(done.ID), key: h.Key})
	assertProblem(t, resp, body, http.StatusInternalServerError, typeBlank)
	got, err := h.client.Get(t.Context(), done.ID)
	require.NoError(t, err, "a failed dismissal keeps the task")
	assert.Equal(t, exporttask.StatusCompleted, got.Status)
	files, err := fs.List(t.Context(), artifactkey.Prefix(done.ID))
	require.NoError(t, err)
	assert.Len(t, files, len(done.Artifacts))

	fail.Store(false)
	resp, body = h.do(t, request{method: http.MethodDelete, path: taskPath(done.ID), key: h.Key})
	require.Equal(t, http.StatusNoContent, resp.StatusCode, "%s", body)
	h.assertGone(t, done.ID)
	files, err = fs.List(t.Context(), artifactkey.Prefix(done.ID))
	require.NoError(t, err)
	assert.Empty(t, files)
}
