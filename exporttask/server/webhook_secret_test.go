package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestWebhookSecretPerCustomer: each customer reads its own signing
// secret, derived from the master secret; keys of one customer agree, and
// another customer's differs.
func TestWebhookSecretPerCustomer(t *testing.T) {
	h := newHarness(t)
	read := func(key string) string {
		resp, body := h.do(t, request{method: http.MethodGet, path: "/webhook-secret", key: key})
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		var got struct{ Secret, Scheme string }
		require.NoError(t, json.Unmarshal(body, &got))
		assert.Equal(t, "v2", got.Scheme)
		return got.Secret
	}
	mine := read(h.Key)
	assert.Equal(t, exporttask.CustomerWebhookSecret(h.WebhookSecret, exporttasktest.Customer), mine)
	assert.Equal(t, mine, read(readKey), "the same customer, another key")
	other := read(otherKey)
	assert.Equal(t, exporttask.CustomerWebhookSecret(h.WebhookSecret, otherCust), other)
	assert.NotEqual(t, mine, other)

	resp, _ := h.do(t, request{method: http.MethodGet, path: "/webhook-secret"})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp, _ = h.do(t, request{method: http.MethodPost, path: "/webhook-secret", key: h.Key})
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}
