package client_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestClientDeliveriesAndRedeliver pages through a task's deliveries and
// asks for one again.
func TestClientDeliveriesAndRedeliver(t *testing.T) {
	ctx := t.Context()
	h := newHarness(t, exporttasktest.WithTaskDuration(50*time.Millisecond))
	req := h.sampleRequest(1)
	req.Webhook = []exporttask.Webhook{{URL: h.sink, Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}}}
	task := h.create(t, req)

	// Wait (polling with a deadline) until both events are delivered.
	var ds []exporttask.WebhookDelivery
	require.Eventually(t, func() bool {
		var err error
		ds, _, err = h.client.Deliveries(ctx, task.ID, client.DeliveryListOptions{})
		return err == nil && len(ds) == 2 && ds[0].Status == exporttask.DeliveryStatusDelivered && ds[1].Status == exporttask.DeliveryStatusDelivered
	}, 20*time.Second, 20*time.Millisecond)
	assert.Equal(t, exporttask.EventStarted, ds[0].Event)
	assert.Equal(t, h.sink, ds[1].URL)

	first, next, err := h.client.Deliveries(ctx, task.ID, client.DeliveryListOptions{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, ds[:1], first)
	require.NotEmpty(t, next)
	second, last, err := h.client.Deliveries(ctx, task.ID, client.DeliveryListOptions{Limit: 1, Cursor: next})
	require.NoError(t, err)
	assert.Equal(t, ds[1:], second)
	assert.Empty(t, last)

	again, err := h.client.Redeliver(ctx, task.ID, ds[1].ID)
	require.NoError(t, err)
	assert.Greater(t, again.ID, ds[1].ID)
	assert.Equal(t, exporttask.EventCompleted, again.Event)
	assert.Equal(t, exporttask.DeliveryStatusPending, again.Status)

	var p *exporttask.Problem
	_, err = h.client.Redeliver(ctx, task.ID, 424242)
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusNotFound, p.Status)
	_, _, err = h.client.Deliveries(ctx, 424242, client.DeliveryListOptions{})
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusNotFound, p.Status)
	_, _, err = h.client.Deliveries(ctx, task.ID, client.DeliveryListOptions{Cursor: "nope"})
	require.ErrorAs(t, err, &p)
	assert.Equal(t, http.StatusBadRequest, p.Status)
	require.Len(t, p.Errors, 1)
	assert.Equal(t, "cursor", p.Errors[0].Parameter)
}
