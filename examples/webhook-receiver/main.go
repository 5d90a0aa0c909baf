package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhook-receiver:", err)
		stop()
		os.Exit(1)
	}
}

// run receives webhooks until ctx is done. Events are printed to stdout;
// the start-up text and the log go to stderr. ready, when not nil,
// receives the listening address once the receiver accepts connections.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	rc := &receiver{
		secret:    cfg.secret,
		tolerance: cfg.tolerance,
		now:       time.Now,
		seen:      newSeenSet(rememberedDeliveries),
		log:       slog.New(slog.NewTextHandler(stderr, nil)),
		out:       stdout,
	}
	if cfg.key != "" {
		rc.secret, err = fetchSecret(ctx, http.DefaultClient, cfg.secretFrom, cfg.key)
		if err != nil {
			return err
		}
		rc.hint = "if the server's webhook secret changed since this receiver started (another -webhook-secret, or its credentials file deleted): restart the receiver"
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", cfg.addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /", rc)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	fmt.Fprintf(stderr, "webhook receiver listening on http://%s/ (POST to any path, e.g. http://%s/hooks)\n", ln.Addr(), ln.Addr())
	if cfg.key != "" {
		fmt.Fprintf(stderr, "verifying with the secret of the key's customer, from %s\n", cfg.secretFrom)
	}
	if ready != nil {
		ready <- ln.Addr().String()
	}

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}
