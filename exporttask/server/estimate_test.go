package server_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestDryRun: POST /export-tasks/estimate answers what the create of the
// same body records (estimates) and would charge (the quota refusal's
// requested bytes), refuses what the create refuses with the same
// problems, needs the write scope, and stores nothing.
func TestDryRun(t *testing.T) {
	h := newHarness(t, exporttasktest.WithQuota(1<<40))
	ctx := context.Background()
	req := h.sampleRequest(1)

	dry, err := h.client.Estimate(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, int64(1<<40), dry.QuotaBytes)
	assert.Equal(t, exporttask.ArtifactTypes(req.Domain), dry.ArtifactTypes)
	tasks, _, err := h.client.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, tasks, "a dry run stores nothing")

	task := h.create(t, req)
	assert.Equal(t, task.EstimatedSize, dry.EstimatedSize)
	assert.Equal(t, task.EstimatedTime, dry.EstimatedTime)
	assert.Equal(t, task.EstimatedSize+docBytes(t, task), dry.RequiredBytes, "what the quota counts")

	// An invalid body: the same problems as the create's.
	bad := strings.Replace(mustJSON(t, h.sampleRequest(2)), `"RASTER"`, `"raster"`, 1)
	for _, path := range []string{"/export-tasks/estimate", "/export-tasks"} {
		resp, b := h.do(t, request{method: http.MethodPost, path: path, key: h.Key,
			header: map[string]string{"Content-Type": "application/json"}, body: bad})
		p := assertProblem(t, resp, b, http.StatusBadRequest, exporttask.ProblemTypeValidation)
		require.Len(t, p.Errors, 1, path)
		assert.Equal(t, "/domain", p.Errors[0].Pointer, path)
	}
	resp, b := h.do(t, request{method: http.MethodPost, path: "/export-tasks/estimate", key: readKey,
		header: map[string]string{"Content-Type": "application/json"}, body: mustJSON(t, req)})
	assertProblem(t, resp, b, http.StatusForbidden, exporttask.ProblemTypeBlank)

	_, err = h.client.Estimate(ctx, exporttask.CreateRequest{})
	var p *exporttask.Problem
	require.True(t, errors.As(err, &p), "%v", err)
	assert.Equal(t, http.StatusBadRequest, p.Status)
	tasks, _, err = h.client.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, tasks, 1, "only the create stored a task")
}
