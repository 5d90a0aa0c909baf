package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// completedTask creates a task with the simulator and waits for COMPLETED.
func (h *harness) completedTask(t *testing.T, n int) exporttask.Task {
	t.Helper()
	task := h.create(t, h.sampleRequest(n))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done, err := h.client.Wait(ctx, task.ID, 10*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusCompleted, done.Status, "errorReason: %s", done.ErrorReason)
	require.NotEmpty(t, done.Artifacts)
	return done
}

// pathOf returns the path of an artifact's absolute URL on the harness.
func (h *harness) pathOf(t *testing.T, a exporttask.Artifact) string {
	t.Helper()
	u, err := url.Parse(a.URL)
	require.NoError(t, err)
	base, err := url.Parse(h.URL)
	require.NoError(t, err)
	require.Equal(t, base.Host, u.Host, "the URL is built from the request's host")
	return u.EscapedPath()
}

func TestDownloadArtifacts(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond))
	task := h.completedTask(t, 1)

	for _, a := range task.Artifacts {
		path := h.pathOf(t, a)
		assert.Equal(t, "/export-tasks/"+strconv.FormatInt(task.ID, 10)+"/artifacts/"+url.PathEscape(a.Name), path)
		resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", a.Name, body)
		assert.Equal(t, a.Size, int64(len(body)))
		assert.Equal(t, strconv.FormatInt(a.Size, 10), resp.Header.Get("Content-Length"))
		sum := sha256.Sum256(body)
		assert.Equal(t, a.SHA256, hex.EncodeToString(sum[:]))
		assert.Equal(t, `"`+a.SHA256+`"`, resp.Header.Get("ETag"))
		assert.Equal(t, "attachment; filename="+a.Name, resp.Header.Get("Content-Disposition"))
		assert.NotEmpty(t, resp.Header.Get("Content-Type"))
	}

	a := task.Artifacts[0]
	path := h.pathOf(t, a)
	_, whole := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})

	t.Run("range", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key, header: map[string]string{"Range": "bytes=10-19"}})
		require.Equal(t, http.StatusPartialContent, resp.StatusCode)
		assert.Equal(t, whole[10:20], body)
		assert.Equal(t, "bytes 10-19/"+strconv.Itoa(len(whole)), resp.Header.Get("Content-Range"))
	})
	t.Run("if-none-match", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key,
			header: map[string]string{"If-None-Match": `"` + a.SHA256 + `"`}})
		assert.Equal(t, http.StatusNotModified, resp.StatusCode)
		assert.Empty(t, body)
	})
	t.Run("head", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodHead, path: path, key: h.Key})
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Empty(t, body)
		assert.Equal(t, strconv.Itoa(len(whole)), resp.Header.Get("Content-Length"))
	})
	t.Run("read scope is enough", func(t *testing.T) {
		resp, _ := h.do(t, request{method: http.MethodGet, path: path, key: readKey})
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		resp, body := h.do(t, request{method: http.MethodGet, path: path, key: writeKey})
		assertProblem(t, resp, body, http.StatusForbidden, exporttask.ProblemTypeBlank)
	})
	t.Run("no key", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodGet, path: path})
		assertProblem(t, resp, body, http.StatusUnauthorized, exporttask.ProblemTypeBlank)
	})
	t.Run("other customer", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodGet, path: path, key: otherKey})
		assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
	})
	t.Run("unknown name", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodGet, key: h.Key,
			path: "/export-tasks/" + strconv.FormatInt(task.ID, 10) + "/artifacts/nothing.gpkg"})
		assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
	})
	t.Run("method not allowed", func(t *testing.T) {
		resp, body := h.do(t, request{method: http.MethodPost, path: path, key: h.Key})
		assertProblem(t, resp, body, http.StatusMethodNotAllowed, exporttask.ProblemTypeBlank)
		assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"))
	})
}

func TestDownloadBeforeCompletion(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	task := h.create(t, h.sampleRequest(2))
	resp, body := h.do(t, request{method: http.MethodGet, key: h.Key,
		path: "/export-tasks/" + strconv.FormatInt(task.ID, 10) + "/artifacts/x.gpkg"})
	p := assertProblem(t, resp, body, http.StatusNotFound, exporttask.ProblemTypeBlank)
	assert.Contains(t, p.Detail, "only a COMPLETED task's files can be downloaded")
}

func TestDownloadAfterExpiry(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond), exporttasktest.WithRetention(300*time.Millisecond))
	task := h.completedTask(t, 3)
	path := h.pathOf(t, task.Artifacts[0])
	resp, _ := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode, "downloadable while COMPLETED")

	require.Eventually(t, func() bool {
		got, err := h.client.Get(context.Background(), task.ID)
		return err == nil && got.Status == exporttask.StatusExpired
	}, 10*time.Second, 10*time.Millisecond)
	got, err := h.client.Get(context.Background(), task.ID)
	require.NoError(t, err)
	for _, a := range got.Artifacts {
		assert.Empty(t, a.URL, "an expired task's artifacts have no URL")
	}
	resp, body := h.do(t, request{method: http.MethodGet, path: path, key: h.Key})
	assertProblem(t, resp, body, http.StatusGone, exporttask.ProblemTypeBlank)
	require.Eventually(t, func() bool {
		left, err := h.Artifacts.List(context.Background(), artifactkey.Prefix(task.ID))
		return err == nil && len(left) == 0
	}, 10*time.Second, 10*time.Millisecond, "the sweeper deletes the files")
}

func TestDownloadURLsUsePublicURL(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond),
		exporttasktest.WithPublicURL("https://exports.example.com/api/"))
	task := h.completedTask(t, 4)
	for _, a := range task.Artifacts {
		assert.Equal(t, "https://exports.example.com/api/export-tasks/"+strconv.FormatInt(task.ID, 10)+
			"/artifacts/"+url.PathEscape(a.Name), a.URL)
	}
	list, _, err := h.client.List(context.Background(), client.ListOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, list)
	assert.Equal(t, task.Artifacts[0].URL, list[0].Artifacts[0].URL, "the list carries the same URLs")
}
