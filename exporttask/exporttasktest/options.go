package exporttasktest

import (
	"io"
	"log/slog"
	"net/netip"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// DefaultTaskDuration is how long a simulated export takes unless
// [WithTaskDuration] says otherwise.
const DefaultTaskDuration = 200 * time.Millisecond

// DefaultWorkerPollInterval is the test server's
// [worker.RunnerConfig.PollInterval] and [webhook.DelivererConfig.PollInterval]
// unless [WithPollInterval] says otherwise:
// how often its idle export workers, its expiry sweeper and its webhook
// deliverer look in the store for work, far more often than a production server's, so that
// tests do not wait. It says nothing of how often a client polls a task
// (see
// [github.com/openapi-viewer/viewer/exporttask/client.DefaultWaitInterval]).
const DefaultWorkerPollInterval = 20 * time.Millisecond

// DefaultPollInterval is the former name of [DefaultWorkerPollInterval].
//
// Deprecated: use DefaultWorkerPollInterval, whose name says whose
// polling it is.
const DefaultPollInterval = DefaultWorkerPollInterval

// DefaultWebhookBackoff is the first retry delay of a failed webhook
// delivery unless [WithWebhookBackoff] says otherwise.
const DefaultWebhookBackoff = 100 * time.Millisecond

// Customer is the customer of the key [NewServer] generates.
const Customer = "test-customer"

// Option configures [NewServer].
type Option func(*config)

type config struct {
	store        taskstore.Store
	exporter     export.Exporter
	real         bool   // see WithRealExports
	catalogDir   string // see WithRealExports
	artifacts    artifact.Store
	publicURL    string
	redirect     bool
	taskDuration time.Duration
	quota        int64
	retention    time.Duration
	allow        []netip.Prefix
	keys         []server.APIKey
	secret       []byte
	workers      int
	poll         time.Duration
	backoff      time.Duration
	logger       *slog.Logger
	tweaks       []func(*server.Config) // see WithServerConfig
	// see WithRunnerConfig and WithDelivererConfig
	runnerTweaks    []func(*worker.RunnerConfig)
	delivererTweaks []func(*webhook.DelivererConfig)
}

func defaultConfig() config {
	return config{
		taskDuration: DefaultTaskDuration,
		poll:         DefaultWorkerPollInterval,
		backoff:      DefaultWebhookBackoff,
		// Webhook receivers in tests run on loopback.
		allow:  []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")},
		logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
	}
}

// WithArtifacts keeps the exported files in store instead of a new
// temporary directory. The caller removes what it holds.
func WithArtifacts(store artifact.Store) Option {
	return func(c *config) { c.artifacts = store }
}

// WithPublicURL sets the base of the artifacts' download URLs (see
// [server.Config.PublicURL]); by default they use the test server's own
// address.
func WithPublicURL(u string) Option {
	return func(c *config) { c.publicURL = u }
}

// WithRedirectDownloads makes downloads answer 302 to presigned URLs when
// the artifact store can mint them (see [server.Config.RedirectDownloads]).
func WithRedirectDownloads() Option {
	return func(c *config) { c.redirect = true }
}

// WithStore runs the server on store instead of a new in-memory SQLite
// database, e.g. to test against PostgreSQL. The caller closes it.
func WithStore(store taskstore.Store) Option {
	return func(c *config) { c.store = store }
}

// WithExporter runs exports with e instead of a simulator.
func WithExporter(e export.Exporter) Option {
	return func(c *config) { c.exporter = e }
}

// WithTaskDuration sets how long a simulated export takes. Default
// [DefaultTaskDuration] (200ms).
func WithTaskDuration(d time.Duration) Option {
	return func(c *config) { c.taskDuration = d }
}

// WithQuota sets each customer's storage quota in bytes. Default 0:
// unlimited.
func WithQuota(bytes int64) Option {
	return func(c *config) { c.quota = bytes }
}

// WithRetention sets how long completed tasks keep their artifacts. Default
// [exporttask.DefaultRetention].
func WithRetention(d time.Duration) Option {
	return func(c *config) { c.retention = d }
}

// WithWebhookAllow replaces the networks webhooks may reach. Default
// loopback (127.0.0.0/8 and ::1/128), where test receivers listen.
func WithWebhookAllow(prefixes ...netip.Prefix) Option {
	return func(c *config) { c.allow = prefixes }
}

// WithKeys adds API keys to the one [NewServer] generates, e.g. a read-only
// key or another customer's.
func WithKeys(keys ...server.APIKey) Option {
	return func(c *config) { c.keys = append(c.keys, keys...) }
}

// WithWebhookSecret sets the secret that signs webhooks. Default: a random
// one, in [Server.WebhookSecret].
func WithWebhookSecret(secret []byte) Option {
	return func(c *config) { c.secret = secret }
}

// WithWorkers sets how many exports run at once. Default
// [worker.DefaultWorkers].
func WithWorkers(n int) Option {
	return func(c *config) { c.workers = n }
}

// WithLogger sends the server's logs to l. Default: discarded.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithPollInterval sets how often idle workers, the expiry sweeper and the
// webhook deliverer look for work. Default [DefaultWorkerPollInterval] (20ms).
func WithPollInterval(d time.Duration) Option {
	return func(c *config) { c.poll = d }
}

// WithWebhookBackoff sets the first retry delay of a failed webhook
// delivery (it doubles, with jitter, at each attempt). Default
// [DefaultWebhookBackoff] (100ms).
func WithWebhookBackoff(d time.Duration) Option {
	return func(c *config) { c.backoff = d }
}
