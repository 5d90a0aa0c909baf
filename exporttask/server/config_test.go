package exporttask_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

func TestNewServerChecksConfig(t *testing.T) {
	st, err := sqlite.Open(t.Context(), ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	valid := func() exporttask.ServerConfig {
		return exporttask.ServerConfig{
			Store:         st,
			Exporter:      exporttask.NewSimulator(exporttask.SimulatorConfig{}),
			Keys:          []exporttask.APIKey{{Key: "k", Customer: "c", Scopes: exporttask.ScopeRead}},
			WebhookSecret: []byte("s"),
		}
	}
	tests := []struct {
		name   string
		change func(*exporttask.ServerConfig)
		want   string
	}{
		{"no store", func(c *exporttask.ServerConfig) { c.Store = nil }, "Store is required"},
		{"no exporter", func(c *exporttask.ServerConfig) { c.Exporter = nil }, "Exporter is required"},
		{"no keys", func(c *exporttask.ServerConfig) { c.Keys = nil }, "at least one API key"},
		{"key without scope", func(c *exporttask.ServerConfig) { c.Keys[0].Scopes = 0 }, "Keys[0]"},
		{"key without customer", func(c *exporttask.ServerConfig) { c.Keys[0].Customer = "" }, "Keys[0]"},
		{"no secret", func(c *exporttask.ServerConfig) { c.WebhookSecret = nil }, "WebhookSecret is required"},
		{"negative quota", func(c *exporttask.ServerConfig) { c.Quota = -1 }, "Quota is negative"},
		{"negative lease", func(c *exporttask.ServerConfig) { c.Lease = -time.Second }, "must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := valid()
			tc.change(&cfg)
			_, err := exporttask.NewServer(cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	srv, err := exporttask.NewServer(valid())
	require.NoError(t, err)
	// Of two concurrent Runs, one runs until its context ends, the other
	// is refused at once.
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 2)
	for range 2 {
		go func() { done <- srv.Run(ctx) }()
	}
	select {
	case err := <-done:
		assert.ErrorContains(t, err, "called twice")
	case <-time.After(10 * time.Second):
		t.Fatal("the second Run was not refused")
	}
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err, "a clean stop")
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}
