package client_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// Create an export, wait for it, and download its files: each is resumed
// if the connection is cut, and checked against the size and SHA-256 the
// task gives.
func ExampleClient_DownloadFile() {
	srv, err := exporttasktest.Start(exporttasktest.WithTaskDuration(50 * time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	c, err := client.New(srv.URL, srv.Key)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	task, err := c.Create(ctx, exporttask.CreateRequest{
		CatalogRecordID: "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60",
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		Webhook: []exporttask.Webhook{{
			URL:    "https://hooks.example.com/exports",
			Events: []exporttask.Event{exporttask.EventCompleted},
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	done, err := c.Wait(ctx, task.ID, 10*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "exports-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	for _, a := range done.Artifacts {
		if err := c.DownloadFile(ctx, a, filepath.Join(dir, a.Name)); err != nil {
			fmt.Println(err)
			return
		}
		st, err := os.Stat(filepath.Join(dir, a.Name))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(a.Type, st.Size() == a.Size)
	}
	// Output:
	// MODEL true
	// ROI true
	// METADATA true
}
