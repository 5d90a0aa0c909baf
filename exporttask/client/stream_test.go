package client_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
)

// serve answers every request with status and body.
func serve(t *testing.T, status int, body []byte) *client.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, "k")
	require.NoError(t, err)
	return c
}

func TestClientStreamsLargeListPages(t *testing.T) {
	// 40 tasks of ~500 KB each: a 20 MB page, larger than any single
	// task may be.
	var page []exporttask.Task
	for i := range 40 {
		task := exporttask.Task{ID: int64(40 - i), Status: exporttask.StatusPending, Artifacts: []exporttask.Artifact{}}
		task.Description = strings.Repeat("d", 500_000)
		page = append(page, task)
	}
	b, err := json.Marshal(page)
	require.NoError(t, err)
	require.Greater(t, len(b), 19_500_000)
	require.Greater(t, int64(len(b)), int64(client.MaxItemBytes), "the page is larger than the per-task limit")

	tasks, _, err := serve(t, http.StatusOK, b).List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, tasks, 40)
	assert.Equal(t, int64(1), tasks[39].ID)
	assert.Len(t, tasks[0].Description, 500_000)
}

func TestClientResponseBodyErrors(t *testing.T) {
	huge, err := json.Marshal([]exporttask.Task{{ID: 1, CreateRequest: exporttask.CreateRequest{
		Description: strings.Repeat("x", client.MaxItemBytes+64<<10)}}})
	require.NoError(t, err)
	tests := []struct {
		name string
		body []byte
		list bool
		want string
	}{
		{"one task beyond the per-task limit", huge, true, "larger than"},
		{"a list that is not an array", []byte(`{"id":1}`), true, "expected an array"},
		{"a list cut short", []byte(`[{"id":1},`), true, "decoding the response"},
		{"data after the list", []byte(`[] []`), true, "data after the array"},
		{"an empty list body", nil, true, "decoding the response"},
		{"data after a task", []byte(`{"id":1} {"id":2}`), false, "data after the JSON value"},
		{"a task that is not JSON", bytes.Repeat([]byte("<"), 10), false, "decoding the response"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, http.StatusOK, tc.body)
			if tc.list {
				_, _, err = c.List(t.Context(), client.ListOptions{})
			} else {
				_, err = c.Get(t.Context(), 1)
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// An empty page is an empty slice, not nil.
	tasks, _, err := serve(t, http.StatusOK, []byte(" [ ]\n")).List(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	assert.NotNil(t, tasks)
	assert.Empty(t, tasks)
}
