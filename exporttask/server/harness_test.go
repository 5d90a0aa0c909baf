package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/server"
)

// Keys of the harness besides the generated read+write key.
const (
	readKey   = "read-only-key"
	writeKey  = "write-only-key"
	otherKey  = "other-customer-key"
	otherCust = "other-customer"
)

// harness is a test server whose every response is checked against
// openapi.yaml.
type harness struct {
	*exporttasktest.Server
	spec   *testkit.SpecChecker
	hc     *http.Client     // checks responses
	client *client.Client   // uses hc, with the read+write key
	logs   *syncBuffer      // the server's JSON log
	sink   *httptest.Server // a webhook receiver that accepts everything
}

func newHarness(t *testing.T, opts ...exporttasktest.Option) *harness {
	t.Helper()
	logs := &syncBuffer{}
	opts = append([]exporttasktest.Option{
		exporttasktest.WithKeys(
			server.APIKey{Key: readKey, Customer: exporttasktest.Customer, Scopes: server.ScopeRead},
			server.APIKey{Key: writeKey, Customer: exporttasktest.Customer, Scopes: server.ScopeWrite},
			server.APIKey{Key: otherKey, Customer: otherCust, Scopes: server.ScopeAll},
		),
		exporttasktest.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))),
	}, opts...)
	srv := exporttasktest.NewServer(t, opts...)
	spec := testkit.NewSpecChecker(t)
	hc := &http.Client{Transport: spec.Transport(http.DefaultTransport)}
	cl, err := client.New(srv.URL, srv.Key, client.WithHTTPClient(hc))
	require.NoError(t, err)
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(sink.Close)
	return &harness{Server: srv, spec: spec, hc: hc, client: cl, logs: logs, sink: sink}
}

// request is one raw HTTP request of a test.
type request struct {
	method string
	path   string
	key    string // sent as x-api-key when not empty
	header map[string]string
	body   string
}

// do sends r and returns the response and its body.
func (h *harness) do(t *testing.T, r request) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), r.method, h.URL+r.path, strings.NewReader(r.body))
	require.NoError(t, err)
	if r.key != "" {
		req.Header.Set("X-Api-Key", r.key)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	resp, err := h.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// create stores a task for the harness's customer and returns it.
func (h *harness) create(t *testing.T, req exporttask.CreateRequest) exporttask.Task {
	t.Helper()
	task, err := h.client.Create(context.Background(), req)
	require.NoError(t, err)
	return task
}

// assertProblem checks that a response is a problem+json body with the
// status, type and request id it should have, and returns it.
func assertProblem(t *testing.T, resp *http.Response, body []byte, status int, typ string) exporttask.Problem {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, "body: %s", body)
	assert.Equal(t, exporttask.ProblemContentType, resp.Header.Get("Content-Type"))
	var p exporttask.Problem
	require.NoError(t, json.Unmarshal(body, &p), "body: %s", body)
	assert.Equal(t, status, p.Status)
	assert.Equal(t, typ, p.Type)
	assert.NotEmpty(t, p.Title)
	assert.NotEmpty(t, p.Detail)
	assert.Equal(t, p.Detail, p.Message, "message repeats detail")
	assert.NotEmpty(t, p.RequestID)
	assert.Equal(t, resp.Header.Get(exporttask.RequestIDHeader), p.RequestID)
	return p
}

// sampleRequest is a valid create request whose webhook goes to the
// harness's sink; n varies the catalog record so that requests with
// different n are not duplicates.
func (h *harness) sampleRequest(n int) exporttask.CreateRequest {
	return testkit.SampleRequestTo(n, h.sink.URL+"/sink")
}

// docBytes is what the document a store keeps for task (as created)
// holds against the quota: its JSON without the id.
func docBytes(t *testing.T, task exporttask.Task) int64 {
	t.Helper()
	task.ID = 0
	b, err := task.MarshalJSON()
	require.NoError(t, err)
	return int64(len(b))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// syncBuffer is a bytes.Buffer safe for the server's concurrent logging.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
