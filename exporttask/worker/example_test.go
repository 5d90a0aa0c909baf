package worker_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// A Runner moves tasks from PENDING to COMPLETED with an Exporter; here the
// Simulator, on an in-memory SQLite store, writing the files to a directory.
func ExampleRunner() {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	dir, err := os.MkdirTemp("", "runner-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	files, err := filestore.Open(ctx, dir)
	if err != nil {
		fmt.Println(err)
		return
	}

	sim := simulate.New(simulate.Config{
		Duration: 20 * time.Millisecond,
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
	task, _, err := store.Create(ctx, taskstore.CreateParams{
		Customer: "acme", Request: req, EstimatedSize: est.Size, EstimatedTime: est.Time, Now: time.Now(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	runner, err := worker.NewRunner(worker.RunnerConfig{
		Store: store, Exporter: sim, Artifacts: files, PollInterval: 10 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		fmt.Println(err)
		stop()
		return
	}
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
		obj, err := files.Open(ctx, fmt.Sprintf("%d/%s", task.ID, a.Name))
		if err != nil {
			fmt.Println(err)
			continue
		}
		obj.Close()
		fmt.Println(a.Type, obj.Info().Key, obj.Info().Size == a.Size)
	}
	// Output:
	// COMPLETED 100
	// MODEL 1/dem-galilee.tif true
	// ROI 1/roi.geojson true
	// METADATA 1/metadata.json true
}
