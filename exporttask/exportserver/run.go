package exportserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// devCustomer owns the generated development key.
const devCustomer = "dev"

// Run serves the API at cfg.Addr until ctx is done, then shuts down
// gracefully: it stops accepting connections, lets in-flight requests
// finish (up to 20s), stops the workers and closes the store. What a user
// needs to start (address, docs URL, generated key and secret, curl lines,
// how to run examples/webhook-receiver) is written to stdout; logs go to logger.
func Run(ctx context.Context, cfg Config, stdout io.Writer, logger *slog.Logger) (err error) {
	st, err := OpenStore(ctx, cfg.DB, cfg.MaxRunning)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("closing the store: %w", cerr))
		}
	}()
	if cfg.WebhookAllow == nil && loopbackOnly(cfg.Addr) {
		// Only this machine's clients can ask for webhooks: let them reach
		// a receiver on it, such as examples/webhook-receiver.
		cfg.WebhookAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}
	banner := bannerInfo{db: cfg.DB, loopback: allows(cfg.WebhookAllow, netip.MustParseAddr("127.0.0.1"))}
	keys, secret := cfg.Keys, cfg.WebhookSecret
	credsPath := devCredsPath(cfg)
	creds, err := loadDevCreds(credsPath, len(keys) == 0, secret == "")
	if err != nil {
		return err
	}
	banner.credsPath = credsPath
	if len(keys) == 0 {
		keys = []server.APIKey{{Key: creds.APIKey, Customer: devCustomer, Scopes: server.ScopeAll}}
		banner.devKey = creds.APIKey
	}
	if secret == "" {
		secret = creds.WebhookSecret
		banner.secret = secret
	}
	exp, scratch, err := newExporter(cfg, stdout)
	if err != nil {
		return err
	}
	arts, where, err := openArtifacts(ctx, cfg, os.Getenv)
	if err != nil {
		return err
	}
	banner.artifacts = where
	banner.simulate = cfg.Exporter == "simulate"
	// Tasks created through the server wake the workers at once.
	wake := worker.NewWakeup()
	srv, err := server.New(server.Config{
		Store:               wake.Store(st),
		Exporter:            exp,
		Artifacts:           arts,
		PublicURL:           cfg.PublicURL,
		TrustForwarded:      cfg.TrustForwarded,
		RedirectDownloads:   cfg.RedirectDownloads,
		Keys:                keys,
		Quota:               cfg.Quota,
		CreateRate:          cfg.CreateRate,
		CreateBurst:         cfg.CreateBurst,
		WebhookSecret:       []byte(secret),
		CheckWebhookURL:     webhook.URLChecker(cfg.WebhookAllow),
		DownloadIdleTimeout: cfg.DownloadIdleTimeout,
		Logger:              logger,
	})
	if err != nil {
		return err
	}
	bg, err := newBackground(cfg, srv, st, wake, exp, arts, spaceDirs(scratch, arts), []byte(secret), logger)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w (if another program listens there, choose another address with -addr, e.g. -addr 127.0.0.1:8081)", cfg.Addr, err)
	}
	banner.baseURL = baseURL(ln.Addr())
	banner.exposed = exposed(ln.Addr())
	if cfg.PublicURL != "" {
		banner.baseURL = strings.TrimRight(cfg.PublicURL, "/")
	}
	banner.write(stdout)
	return serve(ctx, bg, NewHTTPServer(srv.Handler(), cfg.WriteTimeout, logger), ln, cfg.ShutdownGrace, logger)
}

// DefaultShutdownGrace is the default of [Config.ShutdownGrace].
const DefaultShutdownGrace = 30 * time.Second

// runner is the background work serve runs beside the HTTP server.
type runner interface {
	run(ctx context.Context) error
}

// serve runs the HTTP server and the workers until ctx is done or the HTTP
// server fails, then stops both: requests first, workers after, waiting
// for them at most grace.
func serve(ctx context.Context, bg runner, hs *http.Server, ln net.Listener, grace time.Duration, logger *slog.Logger) error {
	workersCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	workersDone := make(chan error, 1)
	go func() { workersDone <- bg.run(workersCtx) }()
	serveDone := make(chan error, 1)
	go func() { serveDone <- hs.Serve(ln) }()

	var errs []error
	select {
	case <-ctx.Done():
		logger.Info("shutting down: finishing in-flight requests")
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			errs = append(errs, fmt.Errorf("shutting down the HTTP server: %w", err))
		}
		if err := <-serveDone; err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, fmt.Errorf("serving HTTP: %w", err))
		}
	case err := <-serveDone:
		errs = append(errs, fmt.Errorf("serving HTTP: %w", err))
	case err := <-workersDone:
		// The workers stopped on their own: serve no more.
		_ = hs.Close()
		<-serveDone
		return fmt.Errorf("the workers stopped: %w", err)
	}
	stopWorkers()
	graceOver := time.NewTimer(grace)
	defer graceOver.Stop()
	select {
	case err := <-workersDone:
		if err != nil {
			errs = append(errs, err)
		}
	case <-graceOver.C:
		logger.Warn("shutting down: exports still running after the grace period are left to be resumed at the next start",
			"grace", grace)
	}
	logger.Info("stopped")
	return errors.Join(errs...)
}

// loopbackOnly reports whether the listen address addr accepts
// connections from this machine only: a loopback IP or localhost.
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// allows reports whether one of prefixes holds a.
func allows(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
