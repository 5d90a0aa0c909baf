package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// failingEstimates is an exporter whose estimates fail while broken is set.
type failingEstimates struct {
	export.Exporter
	broken atomic.Bool
}

func (f *failingEstimates) Estimate(ctx context.Context, r exporttask.CreateRequest) (export.Estimate, error) {
	if f.broken.Load() {
		return export.Estimate{}, errors.New("estimator down")
	}
	return f.Exporter.Estimate(ctx, r)
}

func TestIdempotencyKeyReuse(t *testing.T) {
	exp := &failingEstimates{Exporter: simulate.New(simulate.Config{Duration: time.Hour})}
	h := newHarness(t, exporttasktest.WithExporter(exp))
	post := func(t *testing.T, req exporttask.CreateRequest, key string) (*http.Response, []byte) {
		t.Helper()
		return h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key,
			header: map[string]string{"Content-Type": "application/json", "Idempotency-Key": key}, body: mustJSON(t, req)})
	}
	base := h.sampleRequest(1)
	resp, body := post(t, base, "k-1")
	require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
	first := decodeTask(t, body)

	other := func(change func(*exporttask.CreateRequest)) exporttask.CreateRequest {
		r := h.sampleRequest(1)
		change(&r)
		return r
	}
	tests := []struct {
		name     string
		req      exporttask.CreateRequest
		brokenEx bool // the estimator fails
		status   int
	}{
		{"same body", base, false, http.StatusCreated},
		// The estimate gives the version of the record's data, part of
		// what the key was recorded with: without it the key cannot be
		// checked, and the estimator's failure is the answer.
		{"same body while the estimator fails", base, true, http.StatusInternalServerError},
		{"one more webhook", other(func(r *exporttask.CreateRequest) {
			r.Webhook = append(r.Webhook, exporttask.Webhook{URL: h.sink.URL + "/more", Events: []exporttask.Event{exporttask.EventFailed}})
		}), false, http.StatusUnprocessableEntity},
		{"another export", h.sampleRequest(2), false, http.StatusUnprocessableEntity},
		{"another description", other(func(r *exporttask.CreateRequest) { r.Description = "changed" }), false, http.StatusUnprocessableEntity},
		{"other keywords", other(func(r *exporttask.CreateRequest) { r.Keywords = map[string]any{"k": "v"} }), false, http.StatusUnprocessableEntity},
		{"other parameters", other(func(r *exporttask.CreateRequest) { r.Parameters = map[string]any{"k": 1} }), false, http.StatusUnprocessableEntity},
		{"another webhook", other(func(r *exporttask.CreateRequest) { r.Webhook[0].URL = h.sink.URL + "/other" }), false, http.StatusUnprocessableEntity},
		{"another body while the estimator fails", h.sampleRequest(3), true, http.StatusInternalServerError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exp.broken.Store(tc.brokenEx)
			defer exp.broken.Store(false)
			resp, body := post(t, tc.req, "k-1")
			if tc.status == http.StatusInternalServerError {
				assertProblem(t, resp, body, tc.status, exporttask.ProblemTypeBlank)
				return
			}
			if tc.status == http.StatusCreated {
				require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
				assert.Equal(t, "true", resp.Header.Get(exporttask.ReplayedHeader))
				assert.Equal(t, first.ID, decodeTask(t, body).ID)
				return
			}
			p := assertProblem(t, resp, body, tc.status, exporttask.ProblemTypeIdempotencyKeyReused)
			assertProblemShape(t, body)
			assert.Contains(t, p.Detail, `"k-1"`)
		})
	}

	// The same values with other spacing are the same body.
	indented, err := json.MarshalIndent(base, "", "    ")
	require.NoError(t, err)
	resp, body = h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key,
		header: map[string]string{"Content-Type": "application/json", "Idempotency-Key": "k-1"}, body: string(indented)})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
	assert.Equal(t, first.ID, decodeTask(t, body).ID)

	// A key first sent with a duplicate of task first (another
	// description) names first; retrying that request is not a reuse.
	dup := other(func(r *exporttask.CreateRequest) { r.Description = "a duplicate" })
	for range 2 {
		resp, body = post(t, dup, "k-dup")
		require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
		assert.Equal(t, first.ID, decodeTask(t, body).ID)
	}

	// A new key while the estimator fails is still a 500: nothing is stored.
	exp.broken.Store(true)
	resp, body = post(t, h.sampleRequest(4), "k-2")
	assertProblem(t, resp, body, http.StatusInternalServerError, exporttask.ProblemTypeBlank)
}

// TestIdempotencyKeyRace: 100 creates at once reusing one Idempotency-Key
// with different bodies get exactly one 201 (not replayed) and 99 422s
// naming the key; one task is stored, the 201's. The key is checked in the
// store's transaction, its only look-up, so creates that race cannot
// replay another body's task.
func TestIdempotencyKeyRace(t *testing.T) {
	// A database file, whose commits wait for the disk, as in production:
	// the racing creates meet in the store.
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "tasks.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour), exporttasktest.WithStore(st))
	const n = 100
	statuses := make([]int, n)
	bodies := make([][]byte, n)
	replayed := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resp, body := h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key,
				header: map[string]string{"Content-Type": "application/json", "Idempotency-Key": "raced-key"},
				body:   mustJSON(t, h.sampleRequest(1000+i))})
			statuses[i], bodies[i], replayed[i] = resp.StatusCode, body, resp.Header.Get(exporttask.ReplayedHeader)
		}()
	}
	close(start)
	wg.Wait()
	var created []exporttask.Task
	for i, status := range statuses {
		switch status {
		case http.StatusCreated:
			assert.Empty(t, replayed[i], "a 201 of another body is never a replay")
			created = append(created, decodeTask(t, bodies[i]))
		case http.StatusUnprocessableEntity:
			var p exporttask.Problem
			require.NoError(t, json.Unmarshal(bodies[i], &p))
			assert.Equal(t, exporttask.ProblemTypeIdempotencyKeyReused, p.Type)
			assert.Contains(t, p.Detail, `"raced-key"`)
		default:
			t.Errorf("create %d answered %d: %s", i, status, bodies[i])
		}
	}
	require.Len(t, created, 1, "exactly one 201")
	list, _, err := h.client.List(context.Background(), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, created[0].ID, list[0].ID)
	assert.Equal(t, created[0].CatalogRecordID, list[0].CatalogRecordID)
}
