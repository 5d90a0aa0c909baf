package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// Wire a server: a store, an exporter, keys and a webhook secret; serve its
// handler, and run the export workers and the webhook deliverer beside it,
// on the same store, until the context ends.
func ExampleNew() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()

	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	keys, err := server.ParseKeys("s3cret=acme:read+write")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "server-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	files, err := filestore.Open(ctx, dir) // or s3store.New for a bucket
	if err != nil {
		fmt.Println(err)
		return
	}
	exporter, secret := simulate.New(simulate.Config{}), []byte("webhook-secret")
	logger := slog.New(slog.DiscardHandler)
	srv, err := server.New(server.Config{
		Store:           store,
		Exporter:        exporter,
		Artifacts:       files,
		Keys:            keys,
		WebhookSecret:   secret,
		CheckWebhookURL: webhook.URLChecker(nil),
		Logger:          logger,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	runner, err := worker.NewRunner(worker.RunnerConfig{
		Store: srv.TimeWorkerStore(store), Exporter: exporter, Artifacts: files, Logger: logger})
	if err != nil {
		fmt.Println(err)
		return
	}
	deliverer, err := webhook.NewDeliverer(webhook.DelivererConfig{
		Store: srv.TimeDelivererStore(store), Secret: secret, Logger: logger})
	if err != nil {
		fmt.Println(err)
		return
	}
	done := make(chan error, 2)
	go func() { done <- runner.Run(ctx) }()
	go func() { done <- deliverer.Run(ctx) }()
	defer func() { stop(); <-done; <-done }()

	// In a program: (&http.Server{Addr: ":8080", Handler: srv.Handler()}).ListenAndServe()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	req, _ := http.NewRequest(http.MethodGet, hs.URL+"/export-tasks", nil)
	req.Header.Set("x-api-key", "s3cret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.Status, strings.TrimSpace(string(body)))

	resp, err = http.Get(hs.URL + "/export-tasks")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"))
	// Output:
	// 200 OK []
	// 401 Unauthorized application/problem+json
}
