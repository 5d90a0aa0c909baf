package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// flakyStore fails the API's store calls (not the workers') while broken
// is set, with an error full of internals the client must never see.
type flakyStore struct {
	taskstore.Store
	broken atomic.Bool
}

var errInternals = errors.New(`sqlite: SELECT secret_column FROM tasks WHERE customer = 'x': disk I/O error at /var/lib/db`)

func (s *flakyStore) fail() error {
	if s.broken.Load() {
		return errInternals
	}
	return nil
}

func (s *flakyStore) Create(ctx context.Context, p taskstore.CreateParams) (exporttask.Task, bool, error) {
	if err := s.fail(); err != nil {
		return exporttask.Task{}, false, err
	}
	return s.Store.Create(ctx, p)
}

func (s *flakyStore) Get(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	if err := s.fail(); err != nil {
		return exporttask.Task{}, err
	}
	return s.Store.Get(ctx, customer, id)
}

func (s *flakyStore) List(ctx context.Context, p taskstore.ListParams) ([]exporttask.Task, bool, error) {
	if err := s.fail(); err != nil {
		return nil, false, err
	}
	return s.Store.List(ctx, p)
}

func (s *flakyStore) Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error) {
	if err := s.fail(); err != nil {
		return exporttask.Task{}, err
	}
	return s.Store.Abort(ctx, customer, id, now)
}

func (s *flakyStore) Ping(ctx context.Context) error {
	if err := s.fail(); err != nil {
		return err
	}
	return s.Store.Ping(ctx)
}

func TestStoreFailures(t *testing.T) {
	st, err := sqlite.Open(t.Context(), ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	flaky := &flakyStore{Store: st}
	h := newHarness(t, exporttasktest.WithStore(flaky))
	task := h.create(t, h.sampleRequest(1))
	flaky.broken.Store(true)

	taskURL := "/export-tasks/" + strconv.FormatInt(task.ID, 10)
	for _, req := range []request{
		{method: "POST", path: "/export-tasks", key: h.Key, header: map[string]string{"Content-Type": "application/json"},
			body: mustJSON(t, h.sampleRequest(2))},
		{method: "GET", path: "/export-tasks", key: h.Key},
		{method: "GET", path: taskURL, key: h.Key},
		{method: "DELETE", path: taskURL, key: h.Key},
	} {
		t.Run(req.method+" "+req.path, func(t *testing.T) {
			resp, body := h.do(t, req)
			p := assertProblem(t, resp, body, http.StatusInternalServerError, typeBlank)
			assert.Contains(t, p.Detail, p.RequestID, "the detail tells what id to quote")
			for _, leak := range []string{"sqlite", "SELECT", "disk", "/var/lib"} {
				assert.NotContains(t, string(body), leak)
			}
			// The full error is in the JSON log, under the same id.
			line := logLine(t, h.logs.String(), p.RequestID)
			assert.Equal(t, "ERROR", line["level"])
			assert.Equal(t, errInternals.Error(), line["error"])
		})
	}
	t.Run("readyz", func(t *testing.T) {
		resp, body := h.do(t, request{method: "GET", path: "/readyz"})
		p := assertProblem(t, resp, body, http.StatusServiceUnavailable, typeBlank)
		assert.NotContains(t, string(body), "sqlite")
		assert.Equal(t, errInternals.Error(), logLine(t, h.logs.String(), p.RequestID)["error"])
		resp, _ = h.do(t, request{method: "GET", path: "/healthz"})
		assert.Equal(t, http.StatusOK, resp.StatusCode, "the process itself is up")
	})
	flaky.broken.Store(false)
	// /readyz repeats its last probe for up to a second.
	require.Eventually(t, func() bool {
		resp, _ := h.do(t, request{method: "GET", path: "/readyz"})
		return resp.StatusCode == http.StatusOK
	}, 5*time.Second, 20*time.Millisecond, "/readyz recovers with the store")
}

// countingStore counts the store pings.
type countingStore struct {
	taskstore.Store
	pings atomic.Int64
}

func (s *countingStore) Ping(ctx context.Context) error {
	s.pings.Add(1)
	return s.Store.Ping(ctx)
}

// TestReadyzProbesAtMostOncePerSecond: /readyz needs no key and its probe
// writes, so a flood of it probes the store about once a second.
func TestReadyzProbesAtMostOncePerSecond(t *testing.T) {
	st, err := sqlite.Open(t.Context(), ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	counting := &countingStore{Store: st}
	h := newHarness(t, exporttasktest.WithStore(counting))
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				resp, _ := h.do(t, request{method: "GET", path: "/readyz"})
				assert.Equal(t, http.StatusOK, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	assert.LessOrEqual(t, counting.pings.Load(), int64(elapsed/time.Second)+1,
		"200 answers in %s took %d probes", elapsed, counting.pings.Load())
	assert.Positive(t, counting.pings.Load())
}

// logLine returns the JSON log record that carries requestId id.
func logLine(t *testing.T, logs, id string) map[string]any {
	t.Helper()
	for _, l := range strings.Split(logs, "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(l), &rec) == nil && rec["requestId"] == id {
			return rec
		}
	}
	t.Fatalf("no log record with requestId %s in:\n%s", id, logs)
	return nil
}

func TestQuotaExceeded(t *testing.T) {
	ctx := t.Context()
	probe := newHarness(t)
	first := probe.create(t, probe.sampleRequest(1))
	require.Positive(t, first.EstimatedSize)

	// The quota fits one task of this size and a half.
	quota := first.EstimatedSize + first.EstimatedSize/2
	h := newHarness(t, exporttasktest.WithQuota(quota), exporttasktest.WithTaskDuration(time.Hour))
	a := h.create(t, h.sampleRequest(1))
	resp, body := h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key,
		header: map[string]string{"Content-Type": "application/json"}, body: mustJSON(t, h.sampleRequest(2))})
	p := assertProblem(t, resp, body, exporttask.StatusQuotaExceeded, typeQuota)
	require.NotNil(t, p.QuotaBytes)
	require.NotNil(t, p.RemainingBytes)
	assert.Equal(t, quota, *p.QuotaBytes)
	held := a.EstimatedSize + docBytes(t, a) // its estimate and its stored document
	assert.Equal(t, quota-held, *p.RemainingBytes)
	assert.Contains(t, p.Detail, strconv.FormatInt(quota-held, 10))

	// An aborted task no longer counts against the quota.
	_, err := h.client.Abort(ctx, a.ID)
	require.NoError(t, err)
	_, err = h.client.Create(ctx, h.sampleRequest(2))
	require.NoError(t, err)

	// The client returns the same problem, typed.
	_, err = h.client.Create(ctx, h.sampleRequest(3))
	var cp *exporttask.Problem
	require.ErrorAs(t, err, &cp)
	assert.Equal(t, exporttask.StatusQuotaExceeded, cp.Status)
	assert.Equal(t, typeQuota, cp.Type)
}

func TestDuplicatesAndIdempotency(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	post := func(t *testing.T, body string, idem string) (*http.Response, exporttask.Task) {
		t.Helper()
		hdr := map[string]string{"Content-Type": "application/json"}
		if idem != "" {
			hdr["Idempotency-Key"] = idem
		}
		resp, b := h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key, header: hdr, body: body})
		require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", b)
		return resp, decodeTask(t, b)
	}
	const hookA, hookB = "http://127.0.0.1:1/a", "http://127.0.0.1:1/b"
	req := h.sampleRequest(1)
	req.Webhook = []exporttask.Webhook{{URL: hookA, Events: []exporttask.Event{exporttask.EventStarted}}}
	resp, first := post(t, mustJSON(t, req), "")
	assert.Empty(t, resp.Header.Get(exporttask.ReplayedHeader))

	// The same export with other webhooks: the same task, webhooks merged
	// for every URL.
	dup := h.sampleRequest(1)
	dup.Description = "descriptions do not make a request different"
	dup.Webhook = []exporttask.Webhook{
		{URL: hookA, Events: []exporttask.Event{exporttask.EventCompleted}},
		{URL: hookB, Events: []exporttask.Event{exporttask.EventFailed}},
	}
	resp, second := post(t, mustJSON(t, dup), "")
	assert.Equal(t, "true", resp.Header.Get(exporttask.ReplayedHeader))
	assert.Equal(t, first.ID, second.ID)
	assert.Equal(t, "/export-tasks/"+strconv.FormatInt(first.ID, 10), resp.Header.Get("Location"))
	assert.Equal(t, []exporttask.Webhook{
		{URL: hookA, Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}},
		{URL: hookB, Events: []exporttask.Event{exporttask.EventFailed}},
	}, second.Webhook)

	// An Idempotency-Key replays the first task for the same body (see
	// idempotency_test.go for another body).
	resp, keyed := post(t, mustJSON(t, h.sampleRequest(2)), "order-42")
	assert.Empty(t, resp.Header.Get(exporttask.ReplayedHeader))
	resp, again := post(t, mustJSON(t, h.sampleRequest(2)), "order-42")
	assert.Equal(t, "true", resp.Header.Get(exporttask.ReplayedHeader))
	assert.Equal(t, keyed.ID, again.ID)
	viaClient, err := h.client.Create(t.Context(), h.sampleRequest(2), client.WithIdempotencyKey("order-42"))
	require.NoError(t, err)
	assert.Equal(t, keyed.ID, viaClient.ID)

	// Another customer never gets this customer's task.
	otherClient, err := client.New(h.URL, otherKey, client.WithHTTPClient(h.hc))
	require.NoError(t, err)
	other, err := otherClient.Create(t.Context(), h.sampleRequest(1), client.WithIdempotencyKey("order-42"))
	require.NoError(t, err)
	assert.NotEqual(t, first.ID, other.ID)
	assert.NotEqual(t, keyed.ID, other.ID)
}

func TestListPaging(t *testing.T) {
	ctx := t.Context()
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	var ids []int64
	for i := range 7 {
		ids = append(ids, h.create(t, h.sampleRequest(i)).ID)
	}
	_, err := h.client.Abort(ctx, ids[2])
	require.NoError(t, err)
	_, err = h.client.Abort(ctx, ids[5])
	require.NoError(t, err)

	// Pages of 3, newest first, through the cursors.
	var got []int64
	cursor, pages := "", 0
	for {
		tasks, next, err := h.client.List(ctx, client.ListOptions{Limit: 3, Cursor: cursor})
		require.NoError(t, err)
		pages++
		for _, task := range tasks {
			got = append(got, task.ID)
		}
		if next == "" {
			break
		}
		cursor = next
		require.Less(t, pages, 10)
	}
	assert.Equal(t, []int64{ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}, got)
	assert.Equal(t, 3, pages)

	// The Link header keeps the limit and the status filter.
	resp, body := h.do(t, request{method: "GET", path: "/export-tasks?limit=1&status=ABORTED", key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var page []exporttask.Task
	require.NoError(t, json.Unmarshal(body, &page))
	require.Len(t, page, 1)
	assert.Equal(t, ids[5], page[0].ID)
	link := resp.Header.Get("Link")
	require.True(t, strings.HasPrefix(link, "</export-tasks?"), link)
	require.True(t, strings.HasSuffix(link, `>; rel="next"`), link)
	next := strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
	assert.Contains(t, next, "limit=1")
	assert.Contains(t, next, "status=ABORTED")
	resp, body = h.do(t, request{method: "GET", path: next, key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.Unmarshal(body, &page))
	require.Len(t, page, 1)
	assert.Equal(t, ids[2], page[0].ID)
	assert.Empty(t, resp.Header.Get("Link"), "no page after the last ABORTED task")

	// The default limit is 10.
	for i := 7; i < 12; i++ {
		h.create(t, h.sampleRequest(i))
	}
	tasks, next, err := h.client.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, tasks, exporttask.DefaultListLimit)
	assert.NotEmpty(t, next)
}

func TestDocsAndSpecServed(t *testing.T) {
	h := newHarness(t)
	for _, path := range []string{"/openapi.json", "/openapi.yaml", "/openapi.yml"} {
		resp, body := h.do(t, request{method: "GET", path: path})
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Contains(t, string(body), "/export-tasks", path)
	}
	resp, body := h.do(t, request{method: "GET", path: "/docs/"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/html")
	assert.NotEmpty(t, body)
}
