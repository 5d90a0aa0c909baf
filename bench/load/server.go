package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

const benchKey = "load-test-key"

// target is a server running in this process on loopback.
type target struct {
	addr string // host:port on loopback
	stop func() error
}

// startServer opens the store db names (a postgres:// DSN or a SQLite
// file) and serves the API on a loopback port, with its workers running.
func startServer(ctx context.Context, db string, o options) (*target, error) {
	st, closeStore, err := openStore(ctx, db)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "load-artifacts-")
	if err != nil {
		_ = closeStore()
		return nil, fmt.Errorf("creating the artifact directory: %w", err)
	}
	closeStore = closeAlso(closeStore, func() error { return os.RemoveAll(dir) })
	files, err := filestore.Open(ctx, dir)
	if err != nil {
		_ = closeStore()
		return nil, err
	}
	exp, secret := simulate.New(simulate.Config{Duration: o.taskDuration}), []byte("load-test-secret")
	srv, err := server.New(server.Config{
		Store:           st,
		Exporter:        exp,
		Artifacts:       files,
		Keys:            []server.APIKey{{Key: benchKey, Customer: "load", Scopes: server.ScopeAll}},
		WebhookSecret:   secret,
		CheckWebhookURL: webhook.URLChecker(nil),
		Quota:           o.quota,
		Logger:          o.logger,
	})
	if err != nil {
		_ = closeStore()
		return nil, err
	}
	runner, err := worker.NewRunner(worker.RunnerConfig{
		Store: srv.TimeWorkerStore(st), Exporter: exp, Artifacts: files, Workers: o.workers, Logger: o.logger})
	if err != nil {
		_ = closeStore()
		return nil, err
	}
	deliverer, err := webhook.NewDeliverer(webhook.DelivererConfig{
		Store: srv.TimeDelivererStore(st), Secret: secret, Logger: o.logger})
	if err != nil {
		_ = closeStore()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = closeStore()
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 5 * time.Second}
	runCtx, cancel := context.WithCancel(ctx)
	workers := make(chan error, 2)
	go func() { workers <- runner.Run(runCtx) }()
	go func() { workers <- deliverer.Run(runCtx) }()
	go func() { _ = hs.Serve(ln) }()
	stop := func() error {
		err := hs.Shutdown(context.Background())
		cancel()
		err = errors.Join(err, <-workers, <-workers, closeStore())
		return err
	}
	return &target{addr: ln.Addr().String(), stop: stop}, nil
}

// closeAlso returns a function that calls first, then then, and joins
// their errors.
func closeAlso(first, then func() error) func() error {
	return func() error { return errors.Join(first(), then()) }
}

// openStore opens the store db names: a PostgreSQL DSN (in a fresh schema)
// or a SQLite file. closeStore closes it and drops the schema.
func openStore(ctx context.Context, db string) (st taskstore.Store, closeStore func() error, err error) {
	if !strings.HasPrefix(db, "postgres://") && !strings.HasPrefix(db, "postgresql://") {
		s, err := sqlite.Open(ctx, db)
		if err != nil {
			return nil, nil, fmt.Errorf("opening %s: %w", db, err)
		}
		return s, s.Close, nil
	}
	dsn, drop, err := pgSchema(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	p, err := postgres.Open(ctx, dsn)
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("opening PostgreSQL: %w", err), drop())
	}
	return p, func() error { return errors.Join(p.Close(), drop()) }, nil
}
