package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// members returns the top-level members of a JSON object.
func members(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &m), "%s", b)
	return m
}

// TestBothRequestShapes: a v1.7.0 body ("webhooks", null description and
// keywords) creates a task that is answered with "webhooks" on create,
// read and list, while a v1.6.5 task keeps "webhook"; a duplicate is
// answered in the shape of its create; a body with both names is a 400
// naming both.
func TestBothRequestShapes(t *testing.T) {
	h := newHarness(t)
	v165 := mustJSON(t, h.sampleRequest(1))
	v170 := strings.Replace(mustJSON(t, h.sampleRequest(2)), `"webhook":`, `"description":null,"keywords":null,"webhooks":`, 1)
	post := func(body string) (*http.Response, []byte) {
		return h.do(t, request{method: http.MethodPost, path: "/export-tasks", key: h.Key,
			header: map[string]string{"Content-Type": "application/json"}, body: body})
	}

	resp, b := post(v165)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", b)
	assert.Contains(t, members(t, b), "webhook")
	resp, b = post(v170)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", b)
	m := members(t, b)
	assert.Contains(t, m, "webhooks")
	assert.NotContains(t, m, "webhook")
	var created exporttask.Task
	require.NoError(t, json.Unmarshal(b, &created))
	assert.Equal(t, exporttask.ShapeV170, created.Shape)

	resp, b = h.do(t, request{method: http.MethodGet, path: "/export-tasks/2", key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, members(t, b), "webhooks")

	resp, b = h.do(t, request{method: http.MethodGet, path: "/export-tasks?limit=1", key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var page []json.RawMessage
	require.NoError(t, json.Unmarshal(b, &page), "a bare array: %s", b)
	require.Len(t, page, 1)
	assert.Contains(t, members(t, page[0]), "webhooks", "the newest task, in its shape")
	assert.Contains(t, resp.Header.Get("Link"), `rel="next"`)
	resp, b = h.do(t, request{method: http.MethodGet, path: "/export-tasks", key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.Unmarshal(b, &page))
	require.Len(t, page, 2)
	assert.Contains(t, members(t, page[1]), "webhook", "the older task keeps its shape")

	// The v1.6.5 request again, in the v1.7.0 shape: the same task,
	// answered as asked.
	resp, b = post(strings.Replace(v165, `"webhook":`, `"webhooks":`, 1))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", b)
	assert.Equal(t, "true", resp.Header.Get(exporttask.ReplayedHeader))
	assert.Contains(t, members(t, b), "webhooks")

	resp, b = post(strings.Replace(v165, `"webhook":`, `"webhooks":[{"url":"https://a.example/x","events":["TASK_FAILED"]}],"webhook":`, 1))
	p := assertProblem(t, resp, b, http.StatusBadRequest, exporttask.ProblemTypeValidation)
	require.Len(t, p.Errors, 1)
	assert.Equal(t, "/webhook", p.Errors[0].Pointer)
	assert.Contains(t, p.Errors[0].Message, "/webhook (v1.6.5) and /webhooks (v1.7.0)")

	// A refused URL is named under the body's own member.
	resp, b = post(strings.Replace(v170, h.sink.URL, "http://169.254.169.254", 1))
	p = assertProblem(t, resp, b, http.StatusBadRequest, exporttask.ProblemTypeValidation)
	require.NotEmpty(t, p.Errors)
	assert.Equal(t, "/webhooks/0/url", p.Errors[0].Pointer)
}
