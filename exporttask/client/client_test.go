package client_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

func TestClientProblems(t *testing.T) {
	ctx := t.Context()
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))

	_, err := h.client.Get(ctx, 424242)
	var p *exporttask.Problem
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusNotFound, p.Status)
	assert.NotEmpty(t, p.RequestID)

	bad := h.sampleRequest(1)
	bad.Domain = "MOON"
	_, err = h.client.Create(ctx, bad)
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusBadRequest, p.Status)
	require.NotEmpty(t, p.Errors)
	assert.Equal(t, "/domain", p.Errors[0].Pointer)

	_, _, err = h.client.List(ctx, client.ListOptions{Limit: 1000})
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusBadRequest, p.Status)

	task := h.create(t, h.sampleRequest(2))
	aborted, err := h.client.Abort(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusAborted, aborted.Status)
	_, err = h.client.Abort(ctx, task.ID)
	require.ErrorIs(t, err, client.ErrDismissed, "a second DELETE dismisses the aborted task")
	_, err = h.client.Abort(ctx, task.ID)
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusNotFound, p.Status, "a dismissed task is gone")

	readOnly, err := client.New(h.URL, readKey, client.WithHTTPClient(h.hc))
	require.NoError(t, err)
	_, err = readOnly.Create(ctx, h.sampleRequest(3))
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusForbidden, p.Status)

	nobody, err := client.New(h.URL, "", client.WithHTTPClient(h.hc))
	require.NoError(t, err)
	_, err = nobody.Get(ctx, task.ID)
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusUnauthorized, p.Status)
}

func TestClientWait(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(200*time.Millisecond))
	task := h.create(t, h.sampleRequest(1))
	done, err := h.client.Wait(t.Context(), task.ID, 20*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, done.Status)

	slow := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	task = slow.create(t, slow.sampleRequest(1))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	last, err := slow.client.Wait(ctx, task.ID, 20*time.Millisecond)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, task.ID, last.ID)
	assert.False(t, last.Status.Final())
}

func TestClientTransportAndBodyErrors(t *testing.T) {
	ctx := t.Context()
	// Nothing listens there.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	c, err := client.New("http://"+addr, "k")
	require.NoError(t, err)
	_, err = c.Get(ctx, 1)
	require.Error(t, err)
	var p *exporttask.Problem
	assert.False(t, errors.As(err, &p), "a transport error is not a problem")
	var ne *net.OpError
	assert.ErrorAs(t, err, &ne, "the transport error is wrapped")

	// A proxy's plain-text error still gives a problem with the status.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "upstream timed out", http.StatusGatewayTimeout)
	}))
	t.Cleanup(proxy.Close)
	c, err = client.New(proxy.URL+"/prefix", "k")
	require.NoError(t, err)
	_, _, err = c.List(ctx, client.ListOptions{})
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusGatewayTimeout, p.Status)
	assert.Equal(t, "upstream timed out", p.Detail)

	// A 200 that is not JSON is an error, not a zero task.
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<html>"))
	}))
	t.Cleanup(garbage.Close)
	c, err = client.New(garbage.URL, "k")
	require.NoError(t, err)
	_, err = c.Get(ctx, 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "decoding the response")

	for _, bad := range []string{"", "localhost:8080", "ftp://x", "http://", "://"} {
		_, err := client.New(bad, "k")
		assert.Error(t, err, bad)
	}
}

// TestClientPathPrefix: a client of a server mounted under a prefix sends
// every request under it.
func TestClientPathPrefix(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.RequestURI())
		assert.Equal(t, "Bearer secret", r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		switch r.Method {
		case http.MethodGet:
			if r.URL.Path == "/api/v1/export-tasks" {
				w.Header().Set("Link", `<https://elsewhere.example/api/v1/export-tasks?cursor=YjEy&limit=2>; rel="next"`)
				_, _ = w.Write([]byte(`[]`))
				return
			}
			_, _ = w.Write([]byte(`{"id":7,"status":"PENDING"}`))
		case http.MethodPost:
			assert.Equal(t, "abc", r.Header.Get("Idempotency-Key"))
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"id":8,"status":"PENDING"}`))
		case http.MethodDelete:
			_, _ = w.Write([]byte(`{"id":7,"status":"ABORTED"}`))
		}
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL+"/api/v1/", "secret")
	require.NoError(t, err)
	ctx := t.Context()
	_, err = c.Get(ctx, 7)
	require.NoError(t, err)
	_, err = c.Abort(ctx, 7)
	require.NoError(t, err)
	created, err := c.Create(ctx, exporttask.CreateRequest{}, client.WithIdempotencyKey("abc"))
	require.NoError(t, err)
	assert.Equal(t, int64(8), created.ID)
	_, next, err := c.List(ctx, client.ListOptions{Limit: 2, Status: exporttask.StatusPending, Cursor: "YjE0"})
	require.NoError(t, err)
	assert.Equal(t, "YjEy", next)
	assert.Equal(t, []string{
		"GET /api/v1/export-tasks/7",
		"DELETE /api/v1/export-tasks/7",
		"POST /api/v1/export-tasks",
		"GET /api/v1/export-tasks?cursor=YjE0&limit=2&status=PENDING",
	}, paths)
}
