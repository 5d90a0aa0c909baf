package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestWebhookSecretPerCustomer: each customer reads its own signing
// secret, derived from the master secret, with a key of write scope; keys
// of one customer agree, another customer's differs, and a read-only key
// gets 403.
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
	assert.Equal(t, mine, read(writeKey), "the same customer, a write-only key")
	other := read(otherKey)
	assert.Equal(t, exporttask.CustomerWebhookSecret(h.WebhookSecret, otherCust), other)
	assert.NotEqual(t, mine, other)

	resp, body := h.do(t, request{method: http.MethodGet, path: "/webhook-secret", key: readKey})
	p := assertProblem(t, resp, body, http.StatusForbidden, exporttask.ProblemTypeBlank)
	assert.NotContains(t, string(body), mine, "a read-only key cannot obtain the secret")
	assert.Contains(t, p.Detail, "write")
	resp, _ = h.do(t, request{method: http.MethodGet, path: "/webhook-secret"})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	resp, _ = h.do(t, request{method: http.MethodPost, path: "/webhook-secret", key: h.Key})
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// TestDuplicateMergeRespectsMaxWebhooks: duplicates whose merged webhooks
// would exceed MaxWebhooks URLs are answered 400 naming /webhook.
func TestDuplicateMergeRespectsMaxWebhooks(t *testing.T) {
	h := newHarness(t, exporttasktest.WithTaskDuration(time.Hour))
	withHooks := func(from, n int) exporttask.CreateRequest {
		req := h.sampleRequest(1)
		req.Webhook = nil
		for i := from; i < from+n; i++ {
			req.Webhook = append(req.Webhook, exporttask.Webhook{URL: fmt.Sprintf("http://127.0.0.1:1/%d", i),
				Events: []exporttask.Event{exporttask.EventCompleted}})
		}
		return req
	}
	first := h.create(t, withHooks(0, exporttask.MaxWebhooks))
	hdr := map[string]string{"Content-Type": "application/json"}
	resp, body := h.do(t, request{method: http.MethodPost, path: "/export-tasks", key: h.Key, header: hdr,
		body: mustJSON(t, withHooks(exporttask.MaxWebhooks, 1))})
	p := assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
	require.Len(t, p.Errors, 1)
	assert.Equal(t, "/webhook", p.Errors[0].Pointer)
	got, err := h.client.Get(t.Context(), first.ID)
	require.NoError(t, err)
	assert.Len(t, got.Webhook, exporttask.MaxWebhooks, "nothing merged")
}
