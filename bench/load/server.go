package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

const benchKey = "load-test-key"

// target is a server running in this process on loopback.
type target struct {
	url   string
	store exporttask.Store
	stop  func() error
}

// startServer opens the store db names (a postgres:// DSN or a SQLite
// file) and serves the API on a loopback port, with its workers running.
func startServer(ctx context.Context, db string, o options) (*target, error) {
	var st exporttask.Store
	var err error
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		st, err = postgres.Open(ctx, db)
	} else {
		st, err = sqlite.Open(ctx, db)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", db, err)
	}
	srv, err := exporttask.NewServer(exporttask.ServerConfig{
		Store:         st,
		Exporter:      exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: o.taskDuration}),
		Keys:          []exporttask.APIKey{{Key: benchKey, Customer: "load", Scopes: exporttask.ScopeAll}},
		WebhookSecret: []byte("load-test-secret"),
		Workers:       o.workers,
		Logger:        o.logger,
	})
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 5 * time.Second}
	runCtx, cancel := context.WithCancel(ctx)
	workers := make(chan error, 1)
	go func() { workers <- srv.Run(runCtx) }()
	go func() { _ = hs.Serve(ln) }()
	stop := func() error {
		err := hs.Shutdown(context.Background())
		cancel()
		err = errors.Join(err, <-workers, st.Close())
		return err
	}
	return &target{url: "http://" + ln.Addr().String(), store: st, stop: stop}, nil
}
