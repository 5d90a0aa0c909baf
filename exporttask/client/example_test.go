package client_test

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// Create an export task and wait until it is done, against a server that
// package exporttasktest runs on loopback with fast simulated exports.
func ExampleClient_Wait() {
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
		CatalogRecordID: "8b867544-2dab-43a1-be6e-f23ec83c19b4",
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
	fmt.Println(task.ID, task.Status)

	done, err := c.Wait(ctx, task.ID, 10*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(done.Status, done.Progress)
	for _, a := range done.Artifacts {
		fmt.Println(a.Type)
	}
	// Output:
	// 1 PENDING
	// COMPLETED 100
	// MODEL
	// ROI
	// METADATA
}
