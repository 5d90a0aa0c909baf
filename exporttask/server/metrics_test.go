package server_test

import (
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// metricValue returns the value of the sample named by series (name and
// labels, exactly as exposed) in a Prometheus text body.
func metricValue(t *testing.T, body, series string) float64 {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`)
	m := re.FindStringSubmatch(body)
	require.NotNil(t, m, "no sample %s in:\n%s", series, body)
	v, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	return v
}

func TestMetrics(t *testing.T) {
	h := newHarness(t)
	for n := range 2 {
		h.create(t, h.sampleRequest(n))
	}
	h.do(t, request{method: "GET", path: "/export-tasks/x", key: h.Key})
	h.do(t, request{method: "GET", path: "/export-tasks/999", key: h.Key})

	resp, body := h.do(t, request{method: "GET", path: "/metrics"})
	require.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/plain")
	text := string(body)

	tests := []struct {
		series string
		want   float64 // -1: present, any value
	}{
		{`exporttask_http_requests_total{code="201",method="POST",route="POST /export-tasks"}`, 2},
		{`exporttask_http_requests_total{code="400",method="GET",route="GET /export-tasks/{id}"}`, 1},
		{`exporttask_http_requests_total{code="404",method="GET",route="GET /export-tasks/{id}"}`, 1},
		{`exporttask_http_request_duration_seconds_count{method="POST",route="POST /export-tasks"}`, 2},
		{`exporttask_store_operation_duration_seconds_count{op="create",outcome="ok"}`, 2},
		{`exporttask_store_operation_duration_seconds_count{op="get",outcome="error"}`, 1}, // the 404
		{`exporttask_tasks{status="ARCHIVED"}`, 0},
		{`exporttask_webhook_deliveries{state="failed"}`, 0},
		{`exporttask_queue_depth`, -1}, // the workers may have claimed them by now
		{`exporttask_webhook_deliveries{state="pending"}`, -1},
	}
	for _, tc := range tests {
		v := metricValue(t, text, tc.series)
		if tc.want >= 0 {
			assert.Equal(t, tc.want, v, tc.series)
		}
	}
	// Every task is counted in some status.
	var total float64
	for _, s := range exporttask.Statuses() {
		total += metricValue(t, text, `exporttask_tasks{status="`+string(s)+`"}`)
	}
	assert.Equal(t, 2.0, total)

	resp, body = h.do(t, request{method: "POST", path: "/metrics"})
	assertProblem(t, resp, body, http.StatusMethodNotAllowed, exporttask.ProblemTypeBlank)

	// Made-up methods share one label value.
	for _, m := range []string{"BREW", "WHEN"} {
		resp, _ := h.do(t, request{method: m, path: "/export-tasks"})
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	}
	_, body = h.do(t, request{method: "GET", path: "/metrics"})
	assert.Equal(t, 2.0, metricValue(t, string(body), `exporttask_http_requests_total{code="405",method="OTHER",route="/export-tasks"}`))
	assert.NotContains(t, string(body), "BREW")
}
