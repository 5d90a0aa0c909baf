// Command client exports a small region of the demo DEM with the Go client
// of package exporttask/client: it creates a task, waits until it is
// COMPLETED, and downloads every file, each resumed after a cut connection
// and checked against the size and SHA-256 the task gives.
//
// With the reference server running (go run ./examples/server) and the key
// it printed:
//
//	go run ./examples/client -key "$KEY"
//
// Flags:
//
//	-url  the server (default http://localhost:8080)
//	-key  an API key with the write scope (required)
//	-out  where the files go (default export-ID in the working directory)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/client"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "client:", err)
		}
		os.Exit(2)
	}
}

// request is the export this example asks for: a 0.04° square of the demo
// DEM, with a webhook that nobody needs to receive.
func request() exporttask.CreateRequest {
	return exporttask.CreateRequest{
		CatalogRecordID: demo.DEMID,
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature,
			Geometry: exporttask.NewPolygon([]exporttask.Position{
				{34.78, 31.25}, {34.82, 31.25}, {34.82, 31.29}, {34.78, 31.29}, {34.78, 31.25}}),
		}}},
		Webhook: []exporttask.Webhook{{URL: "https://example.com/export-hook",
			Events: []exporttask.Event{exporttask.EventCompleted}}},
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "http://localhost:8080", "the server's base `URL`")
	key := fs.String("key", "", "an API `key` with the write scope (required)")
	out := fs.String("out", "", "`DIR` for the files (default export-ID)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *key == "" {
		return errors.New("-key is required: the key the server printed at start")
	}
	c, err := client.New(*base, *key)
	if err != nil {
		return err
	}
	task, err := c.Create(ctx, request())
	if err != nil {
		return fmt.Errorf("creating the task: %w", err)
	}
	fmt.Fprintf(stdout, "task %d %s, estimated %d bytes in %d s\n", task.ID, task.Status, task.EstimatedSize, task.EstimatedTime)
	done, err := c.Wait(ctx, task.ID, 200*time.Millisecond)
	if err != nil {
		return fmt.Errorf("waiting for task %d: %w", task.ID, err)
	}
	if done.Status != exporttask.StatusCompleted {
		return fmt.Errorf("task %d ended %s: %s", done.ID, done.Status, done.ErrorReason)
	}
	dir := *out
	if dir == "" {
		dir = "export-" + strconv.FormatInt(done.ID, 10)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, a := range done.Artifacts {
		path := filepath.Join(dir, a.Name)
		if err := c.DownloadFile(ctx, a, path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %s (%d bytes, SHA-256 checked)\n", a.Type, path, a.Size)
	}
	return nil
}
