package exporttask_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// A receiver checks every delivery's signature against the raw body before
// trusting it.
func ExampleVerifyWebhook() {
	secret := []byte("shared-secret")
	body := []byte(`{"event":"TASK_COMPLETED","timestamp":"2026-11-21T09:30:00.000Z","data":{"id":1}}`)
	sent := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	header := exporttask.SignWebhook(secret, sent, body)
	fmt.Println(header[:13])

	err := exporttask.VerifyWebhook(secret, header, body, sent.Add(2*time.Second), 5*time.Minute)
	fmt.Println("fresh:", err)
	err = exporttask.VerifyWebhook(secret, header, body, sent.Add(time.Hour), 5*time.Minute)
	fmt.Println("replayed an hour later:", errors.Is(err, exporttask.ErrSignatureStale))
	err = exporttask.VerifyWebhook(secret, header, []byte(`{"event":"TASK_FAILED"}`), sent, 5*time.Minute)
	fmt.Println("tampered:", errors.Is(err, exporttask.ErrSignatureMismatch))
	// Output:
	// t=1795253400,
	// fresh: <nil>
	// replayed an hour later: true
	// tampered: true
}

// A webhook endpoint: it reads the body once, verifies it, and uses
// X-Export-Delivery to ignore a delivery it has already handled (deliveries
// are at least once).
func ExampleVerifyWebhook_handler() {
	secret := []byte("shared-secret")
	handler := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		sig := r.Header.Get(exporttask.SignatureHeader)
		if err := exporttask.VerifyWebhook(secret, sig, body, time.Now(), 0); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized) // not retried
			return
		}
		// Look up r.Header.Get("X-Export-Delivery") among those already
		// handled; then act on the event and answer 2xx.
		w.WriteHeader(http.StatusNoContent)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hooks/export-tasks", handler)
}

// A Runner moves tasks from PENDING to COMPLETED with an Exporter; here the
// Simulator, on an in-memory SQLite store.
func ExampleRunner() {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	sim := simulate.New(simulate.Config{
		Duration: 20 * time.Millisecond,
		BaseURL:  "https://downloads.example.com/exports",
	})
	req := exporttask.CreateRequest{
		CatalogRecordID: "dem-galilee", Domain: exporttask.DomainDEM, ArtifactCRS: exporttask.CRS4326,
		Webhook: []exporttask.Webhook{},
	}
	est, err := sim.Estimate(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	task, _, err := store.Create(ctx, exporttask.CreateParams{
		Customer: "acme", Request: req, EstimatedSize: est.Size, EstimatedTime: est.Time, Now: time.Now(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	runner := worker.NewRunner(worker.RunnerConfig{
		Store: store, Exporter: sim, PollInterval: 10 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler),
	})
	go func() { done <- runner.Run(runCtx) }()

	for deadline := time.Now().Add(10 * time.Second); task.Status != exporttask.StatusCompleted && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		if task, err = store.Get(ctx, "acme", task.ID); err != nil {
			fmt.Println(err)
			break
		}
	}
	stop()
	if err := <-done; err != nil {
		fmt.Println(err)
	}

	fmt.Println(task.Status, task.Progress)
	for _, a := range task.Artifacts {
		fmt.Println(a.Type, a.URL)
	}
	// Output:
	// COMPLETED 100
	// MODEL https://downloads.example.com/exports/1/dem-galilee.tif
	// METADATA https://downloads.example.com/exports/1/dem-galilee_metadata.json
	// ROI https://downloads.example.com/exports/1/dem-galilee_roi.geojson
	// LEGEND https://downloads.example.com/exports/1/dem-galilee_legend.pdf
}
