package server_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

func TestNewServerChecksConfig(t *testing.T) {
	st, err := sqlite.Open(t.Context(), ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	valid := func() server.Config {
		return server.Config{
			Store:           st,
			Exporter:        simulate.New(simulate.Config{}),
			Artifacts:       testkit.Artifacts(t),
			Keys:            []server.APIKey{{Key: "k", Customer: "c", Scopes: server.ScopeRead}},
			WebhookSecret:   []byte("s"),
			CheckWebhookURL: webhook.URLChecker(nil),
		}
	}
	tests := []struct {
		name   string
		change func(*server.Config)
		want   string
	}{
		{"no store", func(c *server.Config) { c.Store = nil }, "Store is required"},
		{"no exporter", func(c *server.Config) { c.Exporter = nil }, "Exporter is required"},
		{"no artifact store", func(c *server.Config) { c.Artifacts = nil }, "Artifacts is required"},
		{"relative public URL", func(c *server.Config) { c.PublicURL = "/exports" }, "PublicURL"},
		{"public URL with query", func(c *server.Config) { c.PublicURL = "https://x.example/?a=1" }, "PublicURL"},
		{"no keys", func(c *server.Config) { c.Keys = nil }, "at least one API key"},
		{"key without scope", func(c *server.Config) { c.Keys[0].Scopes = 0 }, "Keys[0]"},
		{"key without customer", func(c *server.Config) { c.Keys[0].Customer = "" }, "Keys[0]"},
		{"no secret", func(c *server.Config) { c.WebhookSecret = nil }, "WebhookSecret is required"},
		{"negative quota", func(c *server.Config) { c.Quota = -1 }, "Quota is negative"},
		{"no webhook URL check", func(c *server.Config) { c.CheckWebhookURL = nil }, "CheckWebhookURL is required"},
		{"negative download idle timeout", func(c *server.Config) { c.DownloadIdleTimeout = -time.Second }, "must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := valid()
			tc.change(&cfg)
			_, err := server.New(cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	_, err = server.New(valid())
	assert.NoError(t, err)
}
