package server

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Config configures a [Server]: what it needs to answer HTTP requests.
// The background work that moves tasks along (a [worker.Runner]) and
// delivers webhooks (a [webhook.Deliverer]) is built and run beside the
// Server, on the same store; see [Server.TimeWorkerStore] and
// [Server.TimeDelivererStore] for their store calls to show in the
// server's metrics.
type Config struct {
	// Store keeps the tasks and the webhook outbox: a [taskstore.Store],
	// or anything with the methods the Server uses. Required.
	Store Store
	// Exporter estimates the exports of creates (the Runner runs them).
	// Required.
	Exporter export.Exporter
	// Artifacts keeps the exported files; the server serves them at
	// /export-tasks/{id}/artifacts/{name} and deletes them with a
	// dismissed task. Required.
	Artifacts artifact.Store
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
	// [artifact.Presigner] (S3), instead of passing the bytes
	// through the server.
	RedirectDownloads bool
	// Keys are the API keys the server accepts. At least one is required.
	Keys []APIKey
	// Quota is each customer's storage quota in bytes: a create whose
	// estimated size plus its stored document does not fit in what the
	// customer's stored tasks leave is refused with 509 (see
	// [taskstore.Tasks.Create] for what a task holds). Default 0:
	// unlimited.
	Quota int64
	// WebhookSecret is the master secret of webhook signatures, the
	// Deliverer's Secret: each customer's deliveries are signed with the
	// secret derived from it by [exporttask.CustomerWebhookSecret], which
	// the customer reads with GET /webhook-secret. Required.
	WebhookSecret []byte
	// CheckWebhookURL checks each webhook URL of a create before it is
	// stored: it returns the URL in the form to store, or an error whose
	// text is shown to the client (at /webhook/{i}/url of a 400).
	// Required; [webhook.URLChecker], given the Deliverer's Allow, makes
	// the checks the Deliverer makes and stores the form it dials.
	CheckWebhookURL func(raw string) (string, error)
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
	// Logger receives request failures (500s); every record logged with a
	// request's context carries its id as "requestId". Default: JSON to
	// standard error.
	Logger *slog.Logger
}

// Server is the export task service's HTTP API (see [Server.Handler]).
// Several Servers may share one Store (replicas over PostgreSQL).
type Server struct {
	store     Store
	exporter  export.Exporter
	artifacts artifact.Store
	urls      urlBuilder
	presigner artifact.Presigner
	keys      *keyring
	quota     int64
	checkURL  func(raw string) (string, error) // see Config.CheckWebhookURL
	secret    []byte                           // the master webhook secret
	logger    *slog.Logger
	handler   http.Handler
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

// New checks cfg and returns a Server ready to serve requests. It starts
// no background work: run a worker.Runner and a webhook.Deliverer beside
// it (see the package documentation).
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
	if cfg.CheckWebhookURL == nil {
		return nil, errors.New("server: Config.CheckWebhookURL is required (e.g. webhook.URLChecker with the Deliverer's Allow)")
	}
	if cfg.Quota < 0 {
		return nil, fmt.Errorf("server: Config.Quota is negative (%d)", cfg.Quota)
	}
	if cfg.DownloadIdleTimeout < 0 {
		return nil, errors.New("server: Config.DownloadIdleTimeout must not be negative")
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
	s := &Server{
		metrics:      m,
		store:        instrument(cfg.Store, m),
		exporter:     cfg.Exporter,
		artifacts:    cfg.Artifacts,
		urls:         urls,
		keys:         newKeyring(cfg.Keys),
		quota:        cfg.Quota,
		checkURL:     cfg.CheckWebhookURL,
		secret:       bytes.Clone(cfg.WebhookSecret),
		logger:       cfg.Logger,
		limiter:      newRateLimiter(cfg.CreateRate, cfg.CreateBurst, time.Now),
		redeliveries: newRateLimiter(cfg.CreateRate, cfg.CreateBurst, time.Now),
		downloadIdle: cfg.DownloadIdleTimeout,
	}
	if p, ok := cfg.Artifacts.(artifact.Presigner); ok && cfg.RedirectDownloads {
		s.presigner = p
	}
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
