package exporttasktest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
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
	Store taskstore.Store
	// Artifacts keeps the exported files (by default in a temporary
	// directory removed by [Server.Close]).
	Artifacts artifact.Store
	// WebhookSecret signs the server's webhooks; check them with
	// [exporttask.VerifyWebhook].
	WebhookSecret []byte
	// API is the server itself (its HTTP API).
	API *server.Server

	close func() error
}

// NewServer starts a server for t, with a [worker.Runner] and a
// [webhook.Deliverer] running beside it on its store, and stops them, with
// the store, when t ends. It fails t if anything cannot start.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	srv, err := Start(opts...)
	if err != nil {
		t.Fatalf("exporttasktest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("exporttasktest: %v", err)
		}
	})
	return srv
}

// Start starts a server outside a test (in an Example, a TestMain or a
// program); [Server.Close] stops it. Prefer [NewServer] in a test.
func Start(opts ...Option) (*Server, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	ctx := context.Background()
	var closers []func() error
	closeAll := func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		return errors.Join(errs...)
	}
	if cfg.store == nil {
		st, err := sqlite.Open(ctx, ":memory:")
		if err != nil {
			return nil, fmt.Errorf("opening an in-memory SQLite store: %w", err)
		}
		closers = append(closers, st.Close)
		cfg.store = st
	}
	if cfg.artifacts == nil {
		dir, err := os.MkdirTemp("", "exporttasktest-artifacts-")
		if err != nil {
			return nil, errors.Join(fmt.Errorf("creating the artifact directory: %w", err), closeAll())
		}
		closers = append(closers, func() error { return os.RemoveAll(dir) })
		fs, err := filestore.Open(ctx, dir)
		if err != nil {
			return nil, errors.Join(err, closeAll())
		}
		cfg.artifacts = fs
	}
	if cfg.exporter == nil && cfg.real {
		exp, cleanup, err := realExporter(cfg.catalogDir)
		if err != nil {
			return nil, errors.Join(err, closeAll())
		}
		closers = append(closers, cleanup)
		cfg.exporter = exp
	}
	if cfg.exporter == nil {
		cfg.exporter = simulate.New(simulate.Config{Duration: cfg.taskDuration})
	}
	key, err := server.GenerateKey()
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	if cfg.secret == nil {
		cfg.secret = make([]byte, 32)
		_, _ = rand.Read(cfg.secret) // never fails (Go 1.24+)
	}
	scfg := server.Config{
		Store:             cfg.store,
		Exporter:          cfg.exporter,
		Artifacts:         cfg.artifacts,
		PublicURL:         cfg.publicURL,
		RedirectDownloads: cfg.redirect,
		Keys:              append([]server.APIKey{{Key: key, Customer: Customer, Scopes: server.ScopeAll}}, cfg.keys...),
		Quota:             cfg.quota,
		WebhookSecret:     cfg.secret,
		CheckWebhookURL:   webhook.URLChecker(cfg.allow),
		Logger:            cfg.logger,
	}
	for _, f := range cfg.tweaks {
		f(&scfg)
	}
	api, err := server.New(scfg)
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	rcfg := worker.RunnerConfig{
		Store:         api.TimeWorkerStore(cfg.store),
		Exporter:      cfg.exporter,
		Artifacts:     cfg.artifacts,
		Workers:       cfg.workers,
		PollInterval:  cfg.poll,
		SweepInterval: cfg.poll,
		RetryDelay:    cfg.poll,
		Retention:     cfg.retention,
		Logger:        cfg.logger,
	}
	for _, f := range cfg.runnerTweaks {
		f(&rcfg)
	}
	dcfg := webhook.DelivererConfig{
		Store:        api.TimeDelivererStore(cfg.store),
		Secret:       cfg.secret,
		Allow:        cfg.allow,
		BaseBackoff:  cfg.backoff,
		PollInterval: cfg.poll,
		Logger:       cfg.logger,
	}
	for _, f := range cfg.delivererTweaks {
		f(&dcfg)
	}
	runner, err := worker.NewRunner(rcfg)
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	deliverer, err := webhook.NewDeliverer(dcfg)
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	hs := httptest.NewServer(api.Handler())
	closers = append(closers, func() error { hs.Close(); return nil })

	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 2)
	go func() { done <- runner.Run(runCtx) }()
	go func() { done <- deliverer.Run(runCtx) }()
	closers = append(closers, func() error {
		stop()
		if err := errors.Join(<-done, <-done); err != nil {
			return fmt.Errorf("the server's workers stopped with: %w", err)
		}
		return nil
	})

	cl, err := client.New(hs.URL, key, client.WithHTTPClient(hs.Client()))
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	return &Server{URL: hs.URL, Key: key, Client: cl, Store: cfg.store, Artifacts: cfg.artifacts, WebhookSecret: cfg.secret, API: api,
		close: sync.OnceValue(closeAll)}, nil
}

// Close stops the server's workers, its HTTP server and the store it
// opened (not one given with [WithStore]), and reports what failed. Calls
// after the first return the first result.
func (s *Server) Close() error {
	if err := s.close(); err != nil {
		return fmt.Errorf("exporttasktest: %w", err)
	}
	return nil
}
