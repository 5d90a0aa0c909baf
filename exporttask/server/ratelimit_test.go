package server_test

import (
	"math"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

func TestCreateRateLimit(t *testing.T) {
	// A bucket of 2 that refills once in 1000 s: the third create in a row
	// is refused, whatever the speed of the machine.
	h := newHarness(t, exporttasktest.WithServerConfig(func(c *server.Config) {
		c.CreateRate, c.CreateBurst = 0.001, 2
	}))
	post := func(key string, n int) (*http.Response, []byte) {
		return h.do(t, request{method: "POST", path: "/export-tasks", key: key,
			header: map[string]string{"Content-Type": "application/json"}, body: mustJSON(t, h.sampleRequest(n))})
	}
	for n := range 2 {
		resp, body := post(h.Key, n)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
	}
	resp, body := post(h.Key, 3)
	p := assertProblem(t, resp, body, http.StatusTooManyRequests, exporttask.ProblemTypeBlank)
	assertProblemShape(t, body)
	retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	require.NoError(t, err, "Retry-After is whole seconds")
	assert.InDelta(t, 1000, retry, 1)
	assert.Contains(t, p.Detail, "retry in")

	// Reads are not limited, and another customer has its own bucket.
	resp, body = h.do(t, request{method: "GET", path: "/export-tasks", key: h.Key})
	assert.Equal(t, http.StatusOK, resp.StatusCode, "body: %s", body)
	resp, body = post(otherKey, 4)
	assert.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
}

func TestCreateRateConfig(t *testing.T) {
	st, err := sqlite.Open(t.Context(), sqlite.Memory)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	base := func() server.Config {
		return server.Config{Store: st, Exporter: simulate.New(simulate.Config{}), Artifacts: testkit.Artifacts(t), WebhookSecret: []byte("s"),
			CheckWebhookURL: webhook.URLChecker(nil), Keys: []server.APIKey{{Key: "k", Customer: "c", Scopes: server.ScopeAll}}}
	}
	for _, tc := range []struct {
		name  string
		rate  float64
		burst int
		ok    bool
	}{
		{"off", 0, 0, true},
		{"rate with default burst", 5, 0, true},
		{"negative rate", -1, 0, false},
		{"negative burst", 1, -1, false},
		{"infinite rate", math.Inf(1), 0, false},
		{"NaN rate", math.NaN(), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			c.CreateRate, c.CreateBurst = tc.rate, tc.burst
			_, err := server.New(c)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, "CreateRate")
			}
		})
	}
}
