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

// TestClassifyDeliveryError: the texts the deliverer records (see
// exporttask/webhook) are reduced to a status code or a class, never shown
// as they are.
func TestClassifyDeliveryError(t *testing.T) {
	for _, tc := range []struct {
		text  string
		code  int
		class exporttask.DeliveryErrorClass
	}{
		{"", 0, ""},
		{"HTTP 503 Service Unavailable", 503, exporttask.DeliveryErrorHTTPStatus},
		{"HTTP 410 Gone (gave up after 1 attempts over 0s)", 410, exporttask.DeliveryErrorHTTPStatus},
		{`HTTP 307 Temporary Redirect: redirect to "http://10.0.0.1/" not followed`, 307, exporttask.DeliveryErrorHTTPStatus},
		{`Post "http://127.0.0.1:9/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, 0, exporttask.DeliveryErrorTimeout},
		{`Post "http://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused`, 0, exporttask.DeliveryErrorConnection},
		{`Post "http://nope.invalid/": dial tcp: lookup nope.invalid: no such host`, 0, exporttask.DeliveryErrorDNS},
		{`Post "https://h/": tls: failed to verify certificate: x509: certificate signed by unknown authority`, 0, exporttask.DeliveryErrorTLS},
		{"webhook address not allowed: 127.0.0.1 is loopback", 0, exporttask.DeliveryErrorAddressNotAllowed},
		{`Post "http://10.0.0.1/": webhook address not allowed: 10.0.0.1 is private`, 0, exporttask.DeliveryErrorAddressNotAllowed},
		{"invalid webhook URL: the URL has no host", 0, exporttask.DeliveryErrorAddressNotAllowed},
		{"HTTP 5xx", 0, exporttask.DeliveryErrorConnection},
	} {
		code, class := taskstore.ClassifyDeliveryError(tc.text)
		assert.Equal(t, tc.code, code, "%q", tc.text)
		assert.Equal(t, tc.class, class, "%q", tc.text)
	}
}

func TestDeliveryRecordView(t *testing.T) {
	at := exporttask.NewTime(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	rec := taskstore.DeliveryRecord{ID: 9, TaskID: 42, URL: "https://h/x", Event: exporttask.EventCompleted,
		State: taskstore.DeliveryGivenUp, Attempts: 3, LastError: "HTTP 422 Unprocessable Entity", CreatedAt: at, DoneAt: at,
		LastAttemptAt: at}
	v := rec.View()
	assert.Equal(t, exporttask.WebhookDelivery{ID: 9, Event: exporttask.EventCompleted, URL: "https://h/x",
		Status: exporttask.DeliveryStatusFailed, Attempts: 3, CreatedAt: at, LastAttemptAt: at,
		LastStatusCode: 422, LastError: exporttask.DeliveryErrorHTTPStatus}, v)

	rec.State, rec.LastError = taskstore.DeliveryDelivered, "HTTP 503 Service Unavailable"
	v = rec.View()
	assert.Equal(t, exporttask.DeliveryStatusDelivered, v.Status)
	assert.Zero(t, v.LastStatusCode, "a delivered delivery shows no failure")
	assert.Empty(t, v.LastError)

	rec.State, rec.DoneAt, rec.NextAttemptAt, rec.LastError = taskstore.DeliveryPending, exporttask.Time{}, at, "dial tcp: connection reset by peer"
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
