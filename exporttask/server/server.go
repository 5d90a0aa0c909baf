package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// Config configures a [Server].
type Config struct {
	// Store keeps the tasks, the work queue and the webhook outbox.
	// Required.
	Store exporttask.Store
	// Exporter estimates and runs the exports. Required.
	Exporter exporttask.Exporter
	// Keys are the API keys the server accepts. At least one is required.
	Keys []APIKey
	// Quota is each customer's storage quota in bytes: a create whose
	// estimated size exceeds what the customer's live tasks leave is
	// refused with 509. Default 0: unlimited.
	Quota int64
	// Retention is how long a completed task's artifacts stay available
	// before the task expires. Default [exporttask.DefaultRetention] (30
	// days).
	Retention time.Duration
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
	// Lease is how long a claimed task stays reserved to its worker without
	// news from it; a task whose process died is taken up again after
	// that. Default [worker.DefaultLease].
	Lease time.Duration
	// PollInterval is how long idle workers and the webhook deliverer wait
	// before looking for work again. Default [worker.DefaultPollInterval]
	// and [webhook.DefaultPollInterval].
	PollInterval time.Duration
	// WebhookBackoff is the longest wait before a failed webhook delivery
	// is tried again; it doubles with each attempt (with jitter), and
	// delivery gives up [webhook.DefaultRetryHorizon] after the event.
	// Default [webhook.DefaultBaseBackoff].
	WebhookBackoff time.Duration
	// Logger receives request failures (500s, with their request id) and
	// the workers' logs. Default: JSON to standard error.
	Logger *slog.Logger
}

// Server is the export task service: the HTTP API (see [Server.Handler])
// and the background work that moves tasks along and delivers webhooks
// (see [Server.Run]). Several Servers may share one Store (replicas over
// PostgreSQL); each task is processed once.
type Server struct {
	store     exporttask.Store
	exporter  exporttask.Exporter
	keys      *keyring
	quota     int64
	allow     []netip.Prefix
	secret    []byte // the master webhook secret
	logger    *slog.Logger
	handler   http.Handler
	runner    *worker.Runner
	deliverer *webhook.Deliverer
	running   atomic.Bool
}

// New checks cfg and returns a Server ready to serve requests. Its
// background work starts with [Server.Run].
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: Config.Store is required")
	}
	if cfg.Exporter == nil {
		return nil, errors.New("server: Config.Exporter is required")
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
	if cfg.Retention < 0 || cfg.Lease < 0 || cfg.PollInterval < 0 || cfg.WebhookBackoff < 0 {
		return nil, errors.New("server: Config durations must not be negative")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	s := &Server{
		store:    cfg.Store,
		exporter: cfg.Exporter,
		keys:     newKeyring(cfg.Keys),
		quota:    cfg.Quota,
		allow:    append([]netip.Prefix(nil), cfg.WebhookAllow...),
		secret:   bytes.Clone(cfg.WebhookSecret),
		logger:   cfg.Logger,
	}
	s.newWorkers(cfg)
	h, err := s.routes()
	if err != nil {
		return nil, err
	}
	s.handler = withRequestID(h)
	return s, nil
}

// Handler returns the HTTP handler of the API, its health checks and its
// documentation (/docs/, /openapi.json, /openapi.yaml, /openapi.yml).
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
