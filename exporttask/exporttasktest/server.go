package exporttasktest

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// Server is a running export task server for one test.
type Server struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:41234.
	URL string
	// Key is an API key of [Customer] with the read and write scopes.
	Key string
	// Client is a client of the server that authenticates with Key.
	Client *client.Client
	// Store is the server's store.
	Store exporttask.Store
	// WebhookSecret signs the server's webhooks; check them with
	// [exporttask.VerifyWebhook].
	WebhookSecret []byte
	// API is the server itself.
	API *server.Server
}

// NewServer starts a server for t and stops it, with its workers and store,
// when t ends. It fails t if anything cannot start.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	ctx := context.Background()
	if cfg.store == nil {
		st, err := sqlite.Open(ctx, ":memory:")
		if err != nil {
			t.Fatalf("exporttasktest: opening an in-memory SQLite store: %v", err)
		}
		t.Cleanup(func() { _ = st.Close() })
		cfg.store = st
	}
	if cfg.exporter == nil {
		cfg.exporter = simulate.New(simulate.Config{Duration: cfg.taskDuration})
	}
	key, err := server.GenerateKey()
	if err != nil {
		t.Fatalf("exporttasktest: %v", err)
	}
	if cfg.secret == nil {
		cfg.secret = make([]byte, 32)
		_, _ = rand.Read(cfg.secret) // never fails (Go 1.24+)
	}
	api, err := server.New(server.Config{
		Store:          cfg.store,
		Exporter:       cfg.exporter,
		Keys:           append([]server.APIKey{{Key: key, Customer: Customer, Scopes: server.ScopeAll}}, cfg.keys...),
		Quota:          cfg.quota,
		Retention:      cfg.retention,
		WebhookSecret:  cfg.secret,
		WebhookAllow:   cfg.allow,
		Workers:        cfg.workers,
		PollInterval:   cfg.poll,
		WebhookBackoff: cfg.backoff,
		Logger:         cfg.logger,
	})
	if err != nil {
		t.Fatalf("exporttasktest: %v", err)
	}
	hs := httptest.NewServer(api.Handler())
	t.Cleanup(hs.Close)

	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- api.Run(runCtx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("exporttasktest: the server's workers stopped with: %v", err)
		}
	})

	cl, err := client.New(hs.URL, key, client.WithHTTPClient(hs.Client()))
	if err != nil {
		t.Fatalf("exporttasktest: %v", err)
	}
	return &Server{URL: hs.URL, Key: key, Client: cl, Store: cfg.store, WebhookSecret: cfg.secret, API: api}
}
