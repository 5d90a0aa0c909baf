package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// createRaw posts body as a create request and returns the answer.
func (h *harness) createRaw(t *testing.T, body string) (*http.Response, []byte) {
	t.Helper()
	return h.do(t, request{method: http.MethodPost, path: "/export-tasks", key: h.Key,
		header: map[string]string{"Content-Type": "application/json"}, body: body})
}

// TestCreateRefusesInvalidUTF8: invalid UTF-8 anywhere in a create body is a
// 400 whose errors name the string's pointer; nothing is stored.
func TestCreateRefusesInvalidUTF8(t *testing.T) {
	h := newHarness(t)
	base := mustJSON(t, h.sampleRequest(1))
	withDescription := func(text string) string {
		return strings.Replace(base, `{`, `{"description":"`+text+`",`, 1)
	}
	for _, tc := range []struct {
		name, body, ptr string
	}{
		{"invalid byte", withDescription("caf\xe9"), "/description"},
		{"overlong form", withDescription("\xc0\xaf"), "/description"},
		{"overlong three bytes", withDescription("\xe0\x80\xaf"), "/description"},
		{"encoded surrogate", withDescription("\xed\xa0\x80"), "/description"},
		{"lone surrogate escape", withDescription(`\ud800`), "/description"},
		{"lone low surrogate escape", withDescription(`x\udfffy`), "/description"},
		{"in the webhook URL", strings.Replace(base, "/sink", "/s\xffnk", 1), "/webhook/0/url"},
		{"in a keyword", strings.Replace(base, `{`, `{"keywords":{"k":["\ud800"]},`, 1), "/keywords/k/0"},
		{"in a member name", strings.Replace(base, "{", "{\"keywords\":{\"k\xfe\":1},", 1), "/keywords"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.createRaw(t, tc.body)
			p := assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
			var pointers []string
			for _, e := range p.Errors {
				pointers = append(pointers, e.Pointer)
				if e.Pointer == tc.ptr {
					assert.Contains(t, e.Message, "UTF-8")
				}
			}
			assert.Contains(t, pointers, tc.ptr)
		})
	}
	resp, body := h.do(t, request{method: http.MethodGet, path: "/export-tasks", key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `[]`, string(body), "nothing was stored")

	t.Run("valid text is kept", func(t *testing.T) {
		resp, body := h.createRaw(t, withDescription(`caf\u00e9 \ud83d\ude00 ☃`))
		require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
		var task exporttask.Task
		require.NoError(t, json.Unmarshal(body, &task))
		assert.Equal(t, "café 😀 ☃", task.Description)
	})
}

// TestCreateWebhookURLForms: webhook URLs are judged, and stored, in the
// form the dialer reaches; what a delivery would refuse is refused at
// create with a 400 naming /webhook/N/url. The server allows no private
// network here, as in production.
func TestCreateWebhookURLForms(t *testing.T) {
	h := newHarness(t, exporttasktest.WithWebhookAllow())
	for i, tc := range []struct {
		name, url string
		stored    string // "": refused
	}{
		{"two ports", "http://127.0.0.1:19100:80/a", ""},
		{"two ports on a public name", "https://hooks.example.com:8443:443/a", ""},
		{"fullwidth loopback digits", "http://１２７.０.０.１:19100/a", ""},
		{"fullwidth metadata address", "http://１６９.２５４.１６９.２５４/latest/meta-data", ""},
		{"circled localhost", "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:19100/a", ""},
		{"legacy numeric loopback", "http://2130706433:19100/a", ""},
		{"port 0", "https://hooks.example.com:0/a", ""},
		{"closed port on a name", "https://hooks.example.com:22/a", ""},
		{"invalid IDN", "https://a\u200db.example.com/a", ""},
		{"circled public name", "https://ⓗⓞⓞⓚⓢ.example.com/a", "https://hooks.example.com/a"},
		{"IDN", "https://bücher.example/a", "https://xn--bcher-kva.example/a"},
		{"port with leading zeros", "https://hooks.example.com:08443/a", "https://hooks.example.com:8443/a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := testkit.SampleRequestTo(100+i, "https://hooks.example.org/exports")
			req.Webhook = append(req.Webhook, exporttask.Webhook{URL: tc.url, Events: []exporttask.Event{exporttask.EventFailed}})
			resp, body := h.createRaw(t, mustJSON(t, req))
			if tc.stored == "" {
				p := assertProblem(t, resp, body, http.StatusBadRequest, exporttask.ProblemTypeValidation)
				require.Len(t, p.Errors, 1, "only the second webhook is refused: %s", body)
				assert.Equal(t, "/webhook/1/url", p.Errors[0].Pointer)
				return
			}
			require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
			var task exporttask.Task
			require.NoError(t, json.Unmarshal(body, &task))
			require.Len(t, task.Webhook, 2)
			assert.Equal(t, tc.stored, task.Webhook[1].URL)
		})
	}
}
