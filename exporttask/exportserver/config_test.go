package exportserver

import (
	"io"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestParseConfigDefaults(t *testing.T) {
	cfg, err := ParseConfig(nil, envOf(nil), io.Discard)
	require.NoError(t, err)
	host, err := os.Hostname()
	require.NoError(t, err)
	assert.Equal(t, Config{Addr: "127.0.0.1:8080", DB: "exporttask.db", CreateBurst: server.DefaultCreateBurst, TaskDuration: 30 * time.Second,
		Retention: exporttask.DefaultRetention, FinalRetention: worker.DefaultFinalRetention, SweepInterval: worker.DefaultSweepInterval, Exporter: "real", Catalog: "exporttask-catalog", Instance: host,
		WriteTimeout: 30 * time.Second, DownloadIdleTimeout: server.DefaultDownloadIdleTimeout, ShutdownGrace: DefaultShutdownGrace, DEMMemory: dem.DefaultMemoryBudget}, cfg,
		"the default instance is the host name")
}

func TestParseConfigFlagsAndEnvironment(t *testing.T) {
	env := envOf(map[string]string{
		"EXPORTTASK_ADDR":                  "127.0.0.1:9000",
		"EXPORTTASK_DB":                    "postgres://u@h/db",
		"EXPORTTASK_KEYS":                  "k1=acme:read,k2=globex",
		"EXPORTTASK_QUOTA":                 "1000000",
		"EXPORTTASK_TASK_DURATION":         "5s",
		"EXPORTTASK_RETENTION":             "48h",
		"EXPORTTASK_SWEEP_INTERVAL":        "5s",
		"EXPORTTASK_FINAL_RETENTION":       "36h",
		"EXPORTTASK_WEBHOOK_SECRET":        "from-env",
		"EXPORTTASK_WEBHOOK_ALLOW":         "127.0.0.0/8, 10.1.2.3",
		"EXPORTTASK_EXPORTER":              "simulate",
		"EXPORTTASK_CATALOG":               "/srv/catalog",
		"EXPORTTASK_ARTIFACTS":             "s3://bucket/exports",
		"EXPORTTASK_S3_PATH_STYLE":         "true",
		"EXPORTTASK_REDIRECT_DOWNLOADS":    "true",
		"EXPORTTASK_PUBLIC_URL":            "https://exports.example.com",
		"EXPORTTASK_CREATE_RATE":           "2.5",
		"EXPORTTASK_INSTANCE":              "replica-2",
		"EXPORTTASK_MAX_RUNNING":           "3",
		"EXPORTTASK_WRITE_TIMEOUT":         "10s",
		"EXPORTTASK_DOWNLOAD_IDLE_TIMEOUT": "1m",
		"EXPORTTASK_SHUTDOWN_GRACE":        "5s",
		"EXPORTTASK_DEM_MEMORY":            "67108864",
	})
	cfg, err := ParseConfig(nil, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, Config{
		Addr: "127.0.0.1:9000", DB: "postgres://u@h/db",
		Keys: []server.APIKey{
			{Key: "k1", Customer: "acme", Scopes: server.ScopeRead},
			{Key: "k2", Customer: "globex", Scopes: server.ScopeAll},
		},
		Quota: 1000000, CreateRate: 2.5, CreateBurst: server.DefaultCreateBurst, TaskDuration: 5 * time.Second, Retention: 48 * time.Hour, FinalRetention: 36 * time.Hour, SweepInterval: 5 * time.Second, WebhookSecret: "from-env",
		Instance: "replica-2", MaxRunning: 3, WriteTimeout: 10 * time.Second, DownloadIdleTimeout: time.Minute,
		ShutdownGrace: 5 * time.Second, DEMMemory: 64 << 20,
		WebhookAllow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.1.2.3/32")},
		Exporter:     "simulate", Catalog: "/srv/catalog", Artifacts: "s3://bucket/exports", S3PathStyle: true,
		RedirectDownloads: true, PublicURL: "https://exports.example.com",
	}, cfg)

	// A flag wins over its variable.
	cfg, err = ParseConfig([]string{"-addr", ":1234", "-db", ":memory:", "-quota", "5", "-webhook-allow", "::1/128"}, env, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, ":1234", cfg.Addr)
	assert.Equal(t, ":memory:", cfg.DB)
	assert.Equal(t, int64(5), cfg.Quota)
	assert.Equal(t, []netip.Prefix{netip.MustParsePrefix("::1/128")}, cfg.WebhookAllow)
	assert.Equal(t, 5*time.Second, cfg.TaskDuration, "the variable still sets what no flag does")

}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{name: "bad duration flag", args: []string{"-task-duration", "soon"}, want: "task-duration"},
		{name: "bad duration variable", env: map[string]string{"EXPORTTASK_TASK_DURATION": "soon"}, want: "EXPORTTASK_TASK_DURATION"},
		{name: "bad quota variable", env: map[string]string{"EXPORTTASK_QUOTA": "lots"}, want: "EXPORTTASK_QUOTA"},
		{name: "negative quota", args: []string{"-quota", "-1"}, want: "-quota"},
		{name: "negative create rate", args: []string{"-create-rate", "-1"}, want: "-create-rate"},
		{name: "NaN create rate", args: []string{"-create-rate", "NaN"}, want: "-create-rate"},
		{name: "zero create burst", args: []string{"-create-burst", "0"}, want: "-create-burst"},
		{name: "zero duration", args: []string{"-task-duration", "0s"}, want: "-task-duration"},
		{name: "zero retention", args: []string{"-retention", "0s"}, want: "-retention"},
		{name: "zero final retention", args: []string{"-final-retention", "0s"}, want: "-final-retention"},
		{name: "zero sweep interval", args: []string{"-sweep-interval", "0s"}, want: "-sweep-interval"},
		{name: "zero write timeout", args: []string{"-write-timeout", "0s"}, want: "-write-timeout"},
		{name: "negative download idle timeout", args: []string{"-download-idle-timeout", "-1s"}, want: "-download-idle-timeout"},
		{name: "bad keys", args: []string{"-keys", "k1=acme:root"}, want: "-keys"},
		{name: "bad CIDR", args: []string{"-webhook-allow", "10.0.0.0/99"}, want: "-webhook-allow"},
		{name: "empty db", args: []string{"-db", ""}, want: "-db"},
		{name: "unknown exporter", args: []string{"-exporter", "fake"}, want: "-exporter must be real or simulate"},
		{name: "empty catalog", args: []string{"-catalog", ""}, want: "-catalog"},
		{name: "negative max running", args: []string{"-max-running", "-1"}, want: "-max-running must not be negative"},
		{name: "bad max running variable", env: map[string]string{"EXPORTTASK_MAX_RUNNING": "two"}, want: "EXPORTTASK_MAX_RUNNING"},
		{name: "DEM memory too small", args: []string{"-dem-memory", "1048576"}, want: "-dem-memory must be at least 16777216 bytes"},
		{name: "slash in instance", args: []string{"-instance", "a/b"}, want: "-instance"},
		{name: "stray argument", args: []string{"serve"}, want: "unexpected arguments: serve"},
		{name: "unknown flag", args: []string{"-port", "80"}, want: "-port"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig(tc.args, envOf(tc.env), io.Discard)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
