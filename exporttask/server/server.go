package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// Config configures a [Server].
type Config struct {
	// Store keeps the tasks, the work queue and the webhook outbox.
	// Required.
	Store taskstore.Store
	// Exporter estimates and runs the exports. Required.
	Exporter exporttask.Exporter
	// Artifacts keeps the exported files; the server serves them at
	// /export-tasks/{id}/artifacts/{name}. Required.
	Artifacts exporttask.ArtifactStore
	// PublicURL is the absolute base URL clients reach the server at (e.g.
	// https://exports.example.com); the artifacts' download URLs start
	// with it. Default: built from each request (its Host header, and
	// https when it came over TLS).
	PublicURL string
	// TrustForwarded makes the server take the scheme and host of download
	// URLs from the X-Forwarded-Proto and X-Forwarded-Host headers when
	// PublicURL is empty. Set it only behind a proxy that sets them.
	TrustForwarded bool
	// RedirectDownloads makes downloads answer 302 to a short-lived
	// presigned URL when Artifacts implements
	// [exporttask.ArtifactPresigner] (S3), instead of passing the bytes
	// through the server.
	RedirectDownloads bool
	// Keys are the API keys the server accepts. At least one is required.
	Keys []APIKey
	// Quota is each customer's storage quota in bytes: a create whose
	// estimated size plus its stored document does not fit in what the
	// customer's stored tasks leave is refused with 509 (see
	// [taskstore.Store.Create] for what a task holds). Default 0:
	// unlimited.
	Quota int64
	// Retention is how long a completed task's artifacts stay available
	// before the task expires. Default [exporttask.DefaultRetention] (30
	// days).
	Retention time.Duration
	// FinalRetention is how long an ABORTED, FAILED or EXPIRED task stays
	// stored before the sweeper removes it (see
	// [worker.RunnerConfig.FinalRetention]); after that, its id answers
	// 404 like any unknown one. Default [worker.DefaultFinalRetention] (7
	// days).
	FinalRetention time.Duration
	// WebhookSecret is the master secret of webhook signatures: each
	// customer's deliveries are signed with the secret derived from it by
	// [exporttask.CustomerWebhookSecret], which the customer reads with
	// GET /webhook-secret. Required.
	WebhookSecret []byte
	// WebhookAllow lists the networks webhooks may reach even though they
	// are loopback, private or link-local (e.g. 127.0.0.0/8 for local
	// testing). Default none.
	WebhookAllow []netip.Prefix
	// Workers is the number of exports run at once by this process.
	// Default [worker.DefaultWorkers].
	Workers int
	// Instance is this process's stable name across restarts, unique
	// among the processes sharing the store, without "/": a restarted
	// process resumes its own interrupted tasks at once instead of after
	// their lease (see [worker.RunnerConfig.Instance]). Default empty:
	// they wait for the lease.
	Instance string
	// Lease is how long a claimed task stays reserved to its worker without
	// news from it; a task whose process died is taken up again after
	// that. Default [worker.DefaultLease].
	Lease time.Duration
	// PollInterval is how long idle workers and the webhook deliverer wait
	// before looking for work again. Default [worker.DefaultPollInterval]
	// and [webhook.DefaultPollInterval].
	PollInterval time.Duration
	// MaxAttempts is how many times an export is tried before its task is
	// FAILED (see [worker.RunnerConfig]). Default
	// [worker.DefaultMaxAttempts].
	MaxAttempts int
	// RetryDelay is how long a task waits after a transient export failure
	// before it is tried again. Default [worker.DefaultRetryDelay].
	RetryDelay time.Duration
	// SweepInterval is how often tasks whose retention is over are moved to
	// EXPIRED and their files deleted, and final tasks past FinalRetention
	// removed. Default
	// [worker.DefaultSweepInterval].
	SweepInterval time.Duration
	// WebhookBackoff is the longest wait before a failed webhook delivery
	// is tried again; it doubles with each attempt (with jitter), and
	// delivery gives up [webhook.DefaultRetryHorizon] after the event.
	// Default [webhook.DefaultBaseBackoff].
	WebhookBackoff time.Duration
	// CreateRate limits how many tasks each customer may create per
	// second: a token bucket per customer, refilled at this rate and
	// holding up to CreateBurst creates. A create over the limit is
	// answered 429 with Retry-After, before its body is read. Default 0:
	// no limit (the right rate depends on the deployment; set one in
	// production, since each create writes a task and its outbox rows).
	// Redeliveries are limited at the same rate, in buckets of their own.
	CreateRate float64
	// CreateBurst is how many creates a customer may send at once while
	// its bucket is full. Default [DefaultCreateBurst]; used only with a
	// CreateRate.
	CreateBurst int
	// DownloadIdleTimeout is how long a download may go without the
	// client reading any of it before the connection is cut. A download
	// is never cut for its total duration: the write deadline of its
	// connection is extended by this much before each chunk of the body
	// (the http.Server's WriteTimeout still bounds every other answer),
	// and the request's read deadline is lifted for the download.
	// Default [DefaultDownloadIdleTimeout] (30s).
	DownloadIdleTimeout time.Duration
	// Logger receives request failures (500s) and the workers' logs;
	// every record logged with a request's context carries its id as
	// "requestId". Default: JSON to standard error.
	Logger *slog.Logger
}

// Server is the export task service: the HTTP API (see [Server.Handler])
// and the background work that moves tasks along and delivers webhooks
// (see [Server.Run]). Several Servers may share one Store (replicas over
// PostgreSQL); each task is processed once.
type Server struct {
	store     taskstore.Store
	exporter  exporttask.Exporter
	artifacts exporttask.ArtifactStore
	urls      urlBuilder
	presigner exporttask.ArtifactPresigner
	keys      *keyring
	quota     int64
	allow     []netip.Prefix
	secret    []byte // the master webhook secret
	logger    *slog.Logger
	handler   http.Handler
	runner    *worker.Runner
	deliverer *webhook.Deliverer
	running   atomic.Bool
	limiter   *rateLimiter // nil: no create rate limit
	// redeliveries limits redeliveries like creates, in buckets of
	// their own; nil: no limit.
	redeliveries *rateLimiter
	metrics      *metrics
	downloadIdle time.Duration // see Config.DownloadIdleTimeout
	ready        readiness     // the last store probe of GET /readyz
}

// DefaultCreateBurst is [Config.CreateBurst] when it is left 0.
const DefaultCreateBurst = 20

// New checks cfg and returns a Server ready to serve requests. Its
// background work starts with [Server.Run].
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: Config.Store is required")
	}
	if cfg.Exporter == nil {
		return nil, errors.New("server: Config.Exporter is required")
	}
	if cfg.Artifacts == nil {
		return nil, errors.New("server: Config.Artifacts is required")
	}
	urls, err := newURLBuilder(cfg.PublicURL, cfg.TrustForwarded)
	if err != nil {
		return nil, err
	}
	if len(cfg.Keys) == 0 {
		return nil, errors.New("server: Config.Keys needs at least one API key")
	}
	for i, k := range cfg.Keys {
		if k.Key == "" || k.Customer == "" || k.Scopes == 0 {
			return nil, fmt.Errorf("server: Config.Keys[%d] needs a key, a customer and a scope", i)
		}
	}
	if len(cfg.WebhookSecret) == 0 {
		return nil, errors.New("server: Config.WebhookSecret is required")
	}
	if cfg.Quota < 0 {
		return nil, fmt.Errorf("server: Config.Quota is negative (%d)", cfg.Quota)
	}
	if cfg.Retention < 0 || cfg.FinalRetention < 0 || cfg.Lease < 0 || cfg.PollInterval < 0 || cfg.SweepInterval < 0 || cfg.RetryDelay < 0 || cfg.MaxAttempts < 0 || cfg.WebhookBackoff < 0 ||
		cfg.DownloadIdleTimeout < 0 {
		return nil, errors.New("server: Config durations must not be negative")
	}
	if cfg.CreateRate < 0 || math.IsNaN(cfg.CreateRate) || math.IsInf(cfg.CreateRate, 0) || cfg.CreateBurst < 0 {
		return nil, fmt.Errorf("server: Config.CreateRate (%v) and CreateBurst (%d) must be finite and not negative",
			cfg.CreateRate, cfg.CreateBurst)
	}
	if cfg.CreateBurst == 0 {
		cfg.CreateBurst = DefaultCreateBurst
	}
	if cfg.DownloadIdleTimeout == 0 {
		cfg.DownloadIdleTimeout = DefaultDownloadIdleTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	cfg.Logger = slog.New(requestIDHandler{cfg.Logger.Handler()})
	m := newMetrics(cfg.Store)
	cfg.Store = timedStore{Store: cfg.Store, m: m}
	s := &Server{
		metrics:      m,
		store:        cfg.Store,
		exporter:     cfg.Exporter,
		artifacts:    cfg.Artifacts,
		urls:         urls,
		keys:         newKeyring(cfg.Keys),
		quota:        cfg.Quota,
		allow:        append([]netip.Prefix(nil), cfg.WebhookAllow...),
		secret:       bytes.Clone(cfg.WebhookSecret),
		logger:       cfg.Logger,
		limiter:      newRateLimiter(cfg.CreateRate, cfg.CreateBurst, time.Now),
		redeliveries: newRateLimiter(cfg.CreateRate, cfg.CreateBurst, time.Now),
		downloadIdle: cfg.DownloadIdleTimeout,
	}
	if p, ok := cfg.Artifacts.(exporttask.ArtifactPresigner); ok && cfg.RedirectDownloads {
		s.presigner = p
	}
	s.newWorkers(cfg)
	h, err := s.routes()
	if err != nil {
		return nil, err
	}
	s.handler = withRequestID(h)
	return s, nil
}

// Handler returns the HTTP handler of the API, its health checks, its
// metrics (/metrics) and its documentation (/docs/, /openapi.json,
// /openapi.yaml, /openapi.yml).
func (s *Server) Handler() http.Handler { return s.handler }

// Run runs the background work (export workers, the expiry sweeper and
// webhook delivery) until ctx is done, then waits for it to stop. It
// returns nil after a clean stop. A Server runs once.
func (s *Server) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("exporttask: Server.Run called twice")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	run := func(i int, name string, f func(context.Context) error) {
		defer wg.Done()
		if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) {
			errs[i] = fmt.Errorf("exporttask: %s: %w", name, err)
			cancel() // one part failing stops the other
		}
	}
	wg.Add(2)
	go run(0, "runner", s.runner.Run)
	go run(1, "webhook delivery", s.deliverer.Run)
	wg.Wait()
	return errors.Join(errs...)
}
