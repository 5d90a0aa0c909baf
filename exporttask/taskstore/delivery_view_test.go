package taskstore_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestDeliveryRecordView(t *testing.T) {
	at := exporttask.NewTime(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	rec := taskstore.DeliveryRecord{ID: 9, TaskID: 42, URL: "https://h/x", Event: exporttask.EventCompleted,
		State: taskstore.DeliveryGivenUp, Attempts: 3, LastStatusCode: 422, LastErrorClass: exporttask.DeliveryErrorHTTPStatus,
		LastError: "HTTP 422 Unprocessable Entity", CreatedAt: at, DoneAt: at,
		LastAttemptAt: at}
	v := rec.View()
	assert.Equal(t, exporttask.WebhookDelivery{ID: 9, Event: exporttask.EventCompleted, URL: "https://h/x",
		Status: exporttask.DeliveryStatusFailed, Attempts: 3, CreatedAt: at, LastAttemptAt: at,
		LastStatusCode: 422, LastError: exporttask.DeliveryErrorHTTPStatus}, v)

	rec.State, rec.LastStatusCode, rec.LastError = taskstore.DeliveryDelivered, 503, "HTTP 503 Service Unavailable"
	v = rec.View()
	assert.Equal(t, exporttask.DeliveryStatusDelivered, v.Status)
	assert.Zero(t, v.LastStatusCode, "a delivered delivery shows no failure")
	assert.Empty(t, v.LastError)

	rec.State, rec.DoneAt, rec.NextAttemptAt = taskstore.DeliveryPending, exporttask.Time{}, at
	rec.LastStatusCode, rec.LastErrorClass, rec.LastError = 0, exporttask.DeliveryErrorConnection, "dial tcp: connection reset by peer"
	v = rec.View()
	assert.Equal(t, exporttask.DeliveryStatusPending, v.Status)
	assert.Equal(t, at, v.NextAttemptAt)
	assert.Equal(t, exporttask.DeliveryErrorConnection, v.LastError)
	assert.NotContains(t, mustMarshal(t, v), "reset by peer", "internal error text stays inside")
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
