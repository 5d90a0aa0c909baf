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
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
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
	require.NotNil(t, dry.RemainingQuotaBytes)
	assert.Equal(t, int64(1<<40), *dry.RemainingQuotaBytes, "nothing stored: the whole quota is left")
	assert.True(t, dry.Fits)
	assert.Equal(t, simulate.ProducedTypes(req.Domain), dry.ArtifactTypes, "the exporter's types, no LEGEND")
	tasks, _, err := h.client.List(ctx, client.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, tasks, "a dry run stores nothing")

	task := h.create(t, req)
	assert.Equal(t, task.EstimatedSize, dry.EstimatedSize)
	assert.Equal(t, task.EstimatedTime, dry.EstimatedTime)
	assert.Equal(t, task.EstimatedSize+docBytes(t, task), dry.RequiredBytes, "what the quota counts")
	again, err := h.client.Estimate(ctx, h.sampleRequest(3))
	require.NoError(t, err)
	require.NotNil(t, again.RemainingQuotaBytes)
	assert.Equal(t, int64(1<<40)-dry.RequiredBytes, *again.RemainingQuotaBytes, "the stored task holds what it required")

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

// TestDryRunQuotaFits: the dry run's remaining quota is the quota less what
// the customer's stored tasks hold, and fits says whether the create would
// pass the quota check: where it says false, the create is refused with
// 509; without a quota there is no remaining quota and everything fits.
func TestDryRunQuotaFits(t *testing.T) {
	ctx := context.Background()
	free := newHarness(t)
	first, second := free.sampleRequest(1), free.sampleRequest(2)
	d1, err := free.client.Estimate(ctx, first)
	require.NoError(t, err)
	assert.Zero(t, d1.QuotaBytes)
	assert.Nil(t, d1.RemainingQuotaBytes, "no quota, no remaining quota")
	assert.True(t, d1.Fits, "everything fits without a quota")
	d2, err := free.client.Estimate(ctx, second)
	require.NoError(t, err)

	// A quota one byte short of both tasks.
	quota := d1.RequiredBytes + d2.RequiredBytes - 1
	h := newHarness(t, exporttasktest.WithQuota(quota))
	dry, err := h.client.Estimate(ctx, first)
	require.NoError(t, err)
	require.NotNil(t, dry.RemainingQuotaBytes)
	assert.Equal(t, quota, *dry.RemainingQuotaBytes)
	assert.True(t, dry.Fits)
	h.create(t, first)

	dry, err = h.client.Estimate(ctx, second)
	require.NoError(t, err)
	require.NotNil(t, dry.RemainingQuotaBytes)
	assert.Equal(t, d2.RequiredBytes-1, *dry.RemainingQuotaBytes, "the first task holds what it required")
	assert.False(t, dry.Fits, "one byte short")
	_, err = h.client.Create(ctx, second)
	var p *exporttask.Problem
	require.True(t, errors.As(err, &p), "%v", err)
	assert.Equal(t, 509, p.Status, "the create the dry run said would not fit is refused")

	// A quota smaller than the task alone: it does not fit.
	small := newHarness(t, exporttasktest.WithQuota(1))
	dry, err = small.client.Estimate(ctx, first)
	require.NoError(t, err)
	require.NotNil(t, dry.RemainingQuotaBytes)
	assert.Equal(t, int64(1), *dry.RemainingQuotaBytes)
	assert.False(t, dry.Fits)
}
