package server_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/server"
)

const (
	typeBlank      = "about:blank"
	typeValidation = "https://openapi-viewer.dev/problems/validation-error"
	typeTransition = "https://openapi-viewer.dev/problems/invalid-transition"
	typeQuota      = "https://openapi-viewer.dev/problems/quota-exceeded"
)

// TestErrorStatuses sends one request per error the API can answer and
// checks the status, the problem body and the headers that go with it.
func TestErrorStatuses(t *testing.T) {
	const burst = 40                                               // creates each customer may send before 429
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour), // tasks stay abortable
		exporttasktest.WithServerConfig(func(c *server.Config) { c.CreateRate, c.CreateBurst = 0.001, burst }))
	mine := h.create(t, h.sampleRequest(1))
	_, err := h.client.Create(t.Context(), h.sampleRequest(5), client.WithIdempotencyKey("reuse-me"))
	require.NoError(t, err)
	aborted := h.create(t, h.sampleRequest(2))
	_, err = h.client.Abort(t.Context(), aborted.ID)
	require.NoError(t, err)
	mineURL := "/export-tasks/" + strconv.FormatInt(mine.ID, 10)
	jsonCT := map[string]string{"Content-Type": "application/json"}
	valid := mustJSON(t, h.sampleRequest(3))

	tests := []struct {
		name       string
		req        request
		status     int
		typ        string
		repeat     int               // send req this many times more before the one checked
		header     map[string]string // response headers that must be set
		detailHas  string            // substring of the detail
		errorPaths []string          // pointers of the errors, in order
	}{
		{name: "no key", req: request{method: "GET", path: "/export-tasks"},
			status: 401, typ: typeBlank, header: map[string]string{"WWW-Authenticate": `Bearer realm="export-tasks"`}},
		{name: "unknown key", req: request{method: "GET", path: mineURL, key: "nope"},
			status: 401, typ: typeBlank, header: map[string]string{"WWW-Authenticate": `Bearer realm="export-tasks", error="invalid_token"`}},
		{name: "unknown bearer", req: request{method: "POST", path: "/export-tasks", header: map[string]string{"Authorization": "Bearer nope", "Content-Type": "application/json"}, body: valid},
			status: 401, typ: typeBlank},
		{name: "read key cannot create", req: request{method: "POST", path: "/export-tasks", key: readKey, header: jsonCT, body: valid},
			status: 403, typ: typeBlank, detailHas: "write"},
		{name: "read key cannot abort", req: request{method: "DELETE", path: mineURL, key: readKey},
			status: 403, typ: typeBlank, detailHas: "write"},
		{name: "write key cannot list", req: request{method: "GET", path: "/export-tasks", key: writeKey},
			status: 403, typ: typeBlank, detailHas: "read"},
		{name: "write key cannot get", req: request{method: "GET", path: mineURL, key: writeKey},
			status: 403, typ: typeBlank, detailHas: "read"},
		{name: "id not an integer", req: request{method: "GET", path: "/export-tasks/abc", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "digits only", errorPaths: []string{"?id"}},
		{name: "id a fraction", req: request{method: "GET", path: "/export-tasks/1.5", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "digits only", errorPaths: []string{"?id"}},
		{name: "id with a plus sign", req: request{method: "GET", path: "/export-tasks/+1", key: h.Key},
			status: 400, typ: typeValidation, detailHas: `got "+1"`, errorPaths: []string{"?id"}},
		{name: "id with an escaped plus sign", req: request{method: "GET", path: "/export-tasks/%2B1", key: h.Key},
			status: 400, typ: typeValidation, detailHas: `got "+1"`, errorPaths: []string{"?id"}},
		{name: "id with a leading zero", req: request{method: "GET", path: "/export-tasks/01", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "leading zeros", errorPaths: []string{"?id"}},
		{name: "id zero", req: request{method: "GET", path: "/export-tasks/0", key: h.Key},
			status: 400, typ: typeValidation, detailHas: `got "0"`, errorPaths: []string{"?id"}},
		{name: "id negative", req: request{method: "DELETE", path: "/export-tasks/-3", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "digits only", errorPaths: []string{"?id"}},
		{name: "abort id not an integer", req: request{method: "DELETE", path: "/export-tasks/x", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "digits only", errorPaths: []string{"?id"}},
		{name: "id beyond int64", req: request{method: "GET", path: "/export-tasks/9223372036854775808", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "out of range", errorPaths: []string{"?id"}},
		{name: "unknown id", req: request{method: "GET", path: "/export-tasks/9223372036854775807", key: h.Key},
			status: 404, typ: typeBlank},
		{name: "another customer's task is not found", req: request{method: "GET", path: mineURL, key: otherKey},
			status: 404, typ: typeBlank},
		{name: "another customer cannot abort", req: request{method: "DELETE", path: mineURL, key: otherKey},
			status: 404, typ: typeBlank},
		{name: "limit zero", req: request{method: "GET", path: "/export-tasks?limit=0", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "limit must be a decimal integer from 1 to 100", errorPaths: []string{"?limit"}},
		{name: "limit above maximum", req: request{method: "GET", path: "/export-tasks?limit=1000", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "limit must be a decimal integer from 1 to 100", errorPaths: []string{"?limit"}},
		{name: "limit with a plus sign", req: request{method: "GET", path: "/export-tasks?limit=%2B5", key: h.Key},
			status: 400, typ: typeValidation, detailHas: `got "+5"`, errorPaths: []string{"?limit"}},
		{name: "every bad list parameter", req: request{method: "GET", path: "/export-tasks?limit=ten&status=DONE&cursor=%21%21", key: h.Key},
			status: 400, typ: typeValidation, detailHas: `limit must be a decimal integer from 1 to 100, got "ten"; status must be one of PENDING, IN_PROGRESS, COMPLETED, FAILED, ABORTED, PAUSED, EXPIRED, ARCHIVED, got "DONE"; cursor is not`,
			errorPaths: []string{"?limit", "?status", "?cursor"}},
		{name: "forged cursor", req: request{method: "GET", path: "/export-tasks?cursor=eDEy", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "cursor is not one", errorPaths: []string{"?cursor"}},
		{name: "cursor with a leading zero", req: request{method: "GET", path: "/export-tasks?cursor=" + "YjA0MQ", key: h.Key},
			status: 400, typ: typeValidation, detailHas: "leading zeros", errorPaths: []string{"?cursor"}},
		{name: "no content type", req: request{method: "POST", path: "/export-tasks", key: h.Key, body: valid},
			status: 415, typ: typeBlank},
		{name: "text content type", req: request{method: "POST", path: "/export-tasks", key: h.Key, header: map[string]string{"Content-Type": "text/plain"}, body: valid},
			status: 415, typ: typeBlank},
		{name: "body too large", req: request{method: "POST", path: "/export-tasks", key: h.Key, header: jsonCT,
			body: `{"description":"` + strings.Repeat("x", exporttask.MaxBodyBytes) + `"}`},
			status: 413, typ: typeBlank},
		{name: "invalid body lists every problem", req: request{method: "POST", path: "/export-tasks", key: h.Key, header: jsonCT,
			body: `{"catalogRecordID":"","domain":"MOON","artifactCRS":"4326","webhook":[]}`},
			status: 400, typ: typeValidation, errorPaths: []string{"/catalogRecordID", "/domain", "/webhook"}},
		{name: "webhook to a private address", req: request{method: "POST", path: "/export-tasks", key: h.Key, header: jsonCT,
			body: mustJSON(t, withWebhooks(h.sampleRequest(4), "http://127.0.0.1:9/ok", "http://10.0.0.1/hook", "http://169.254.169.254/latest"))},
			status: 400, typ: typeValidation, errorPaths: []string{"/webhook/2/url", "/webhook/3/url"}},
		{name: "idempotency key too long", req: request{method: "POST", path: "/export-tasks", key: h.Key,
			header: map[string]string{"Content-Type": "application/json", "Idempotency-Key": strings.Repeat("k", 256)}, body: valid},
			status: 400, typ: typeValidation, detailHas: "Idempotency-Key", errorPaths: []string{"?Idempotency-Key"}},
		{name: "idempotency key reused with another body", req: request{method: "POST", path: "/export-tasks", key: h.Key,
			header: map[string]string{"Content-Type": "application/json", "Idempotency-Key": "reuse-me"}, body: valid},
			status: 422, typ: exporttask.ProblemTypeIdempotencyKeyReused, detailHas: `"reuse-me"`},
		{name: "too many creates", req: request{method: "POST", path: "/export-tasks", key: otherKey, header: jsonCT, body: `{}`},
			repeat: burst, status: 429, typ: typeBlank, detailHas: "retry in 1000 seconds", header: map[string]string{"Retry-After": "1000"}},
		{name: "method not allowed on the collection", req: request{method: "PUT", path: "/export-tasks", key: h.Key},
			status: 405, typ: typeBlank, header: map[string]string{"Allow": "GET, HEAD, POST"}},
		{name: "method not allowed on a task", req: request{method: "PATCH", path: mineURL, key: h.Key},
			status: 405, typ: typeBlank, header: map[string]string{"Allow": "GET, HEAD, DELETE"}},
		{name: "method not allowed on health", req: request{method: "POST", path: "/healthz"},
			status: 405, typ: typeBlank, header: map[string]string{"Allow": "GET, HEAD"}},
		{name: "deliveries: bad id, limit and cursor", req: request{method: "GET", path: "/export-tasks/+1/deliveries?limit=101&cursor=YjQx", key: h.Key},
			status: 400, typ: typeValidation, errorPaths: []string{"?id", "?limit", "?cursor"}},
		{name: "deliveries of another customer's task", req: request{method: "GET", path: mineURL + "/deliveries", key: otherKey},
			status: 404, typ: typeBlank},
		{name: "deliveries with a write-only key", req: request{method: "GET", path: mineURL + "/deliveries", key: writeKey},
			status: 403, typ: typeBlank},
		{name: "redeliver: bad delivery id", req: request{method: "POST", path: mineURL + "/deliveries/0/redeliver", key: h.Key},
			status: 400, typ: typeValidation, errorPaths: []string{"?deliveryId"}},
		{name: "redeliver: no such delivery", req: request{method: "POST", path: mineURL + "/deliveries/424242/redeliver", key: h.Key},
			status: 404, typ: typeBlank, detailHas: "no delivery"},
		{name: "redeliver with a read-only key", req: request{method: "POST", path: mineURL + "/deliveries/1/redeliver", key: readKey},
			status: 403, typ: typeBlank},
		{name: "method not allowed on deliveries", req: request{method: "POST", path: mineURL + "/deliveries", key: h.Key},
			status: 405, typ: typeBlank, header: map[string]string{"Allow": "GET, HEAD"}},
		{name: "method not allowed on redeliver", req: request{method: "PUT", path: mineURL + "/deliveries/1/redeliver", key: h.Key},
			status: 405, typ: typeBlank, header: map[string]string{"Allow": "POST"}},
		{name: "unknown path", req: request{method: "GET", path: "/export-tasks/1/artifacts", key: h.Key},
			status: 404, typ: typeBlank},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range tc.repeat {
				h.do(t, tc.req)
			}
			resp, body := h.do(t, tc.req)
			p := assertProblem(t, resp, body, tc.status, tc.typ)
			for k, v := range tc.header {
				assert.Equal(t, v, resp.Header.Get(k), "header %s", k)
			}
			if tc.detailHas != "" {
				assert.Contains(t, p.Detail, tc.detailHas)
			}
			assertProblemShape(t, body)
			if tc.status == http.StatusBadRequest {
				assert.NotEmpty(t, p.Errors, "every 400 lists its errors")
			}
			var paths []string
			for _, e := range p.Errors {
				where := e.Pointer
				if e.Parameter != "" {
					where = "?" + e.Parameter
				}
				paths = append(paths, where)
				assert.NotEmpty(t, e.Message, "error at %s", where)
			}
			if tc.errorPaths != nil {
				assert.Equal(t, tc.errorPaths, paths)
			}
		})
	}
	// Nothing the failed creates sent was stored.
	tasks, _, err := h.client.List(t.Context(), client.ListOptions{Limit: 100})
	require.NoError(t, err)
	assert.Len(t, tasks, 3)
	assert.Positive(t, h.spec.Count())
}

func withWebhooks(r exporttask.CreateRequest, urls ...string) exporttask.CreateRequest {
	for _, u := range urls {
		r.Webhook = append(r.Webhook, exporttask.Webhook{URL: u, Events: []exporttask.Event{exporttask.EventCompleted}})
	}
	return r
}

// TestSuccessStatuses checks the success answers, their headers and bodies.
func TestSuccessStatuses(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	resp, body := h.do(t, request{method: "POST", path: "/export-tasks", key: h.Key,
		header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, body: mustJSON(t, h.sampleRequest(1))})
	require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
	task := decodeTask(t, body)
	assert.Equal(t, "/export-tasks/"+strconv.FormatInt(task.ID, 10), resp.Header.Get("Location"))
	assert.Empty(t, resp.Header.Get(exporttask.ReplayedHeader))
	assert.NotEmpty(t, resp.Header.Get(exporttask.RequestIDHeader))
	assert.Equal(t, exporttask.StatusPending, task.Status)
	assert.Positive(t, task.EstimatedSize)

	// The bearer form of the key works as the x-api-key one does.
	resp, body = h.do(t, request{method: "GET", path: resp.Header.Get("Location"),
		header: map[string]string{"Authorization": "Bearer " + h.Key}})
	require.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	assert.Equal(t, task.ID, decodeTask(t, body).ID)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))

	// A read-only key reads.
	resp, body = h.do(t, request{method: "GET", path: "/export-tasks", key: readKey})
	require.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	assert.Empty(t, resp.Header.Get("Link"))

	// Another customer sees none of it.
	resp, body = h.do(t, request{method: "GET", path: "/export-tasks", key: otherKey})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `[]`, string(body))

	// Abort gives the ABORTED task.
	resp, body = h.do(t, request{method: "DELETE", path: "/export-tasks/" + strconv.FormatInt(task.ID, 10), key: writeKey})
	require.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	assert.Equal(t, exporttask.StatusAborted, decodeTask(t, body).Status)

	// HEAD answers as GET does, without a body.
	resp, body = h.do(t, request{method: "HEAD", path: "/export-tasks/" + strconv.FormatInt(task.ID, 10), key: h.Key})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, body)

	for _, path := range []string{"/healthz", "/readyz"} {
		resp, body = h.do(t, request{method: "GET", path: path})
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.JSONEq(t, `{"status":"ok"}`, string(body))
	}
	assert.GreaterOrEqual(t, h.spec.Count(), 7)
}

func decodeTask(t *testing.T, body []byte) exporttask.Task {
	t.Helper()
	var task exporttask.Task
	require.NoError(t, json.Unmarshal(body, &task), "body: %s", body)
	return task
}
