package exporttasktest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// A downstream test starts a server in one call and talks to it with the
// ready client. (The example is compiled, not run: it needs a *testing.T.)
func ExampleNewServer() {
	testExport := func(t *testing.T) {
		srv := exporttasktest.NewServer(t, exporttasktest.WithTaskDuration(50*time.Millisecond))
		ctx := context.Background()
		task, err := srv.Client.Create(ctx, exporttask.CreateRequest{
			CatalogRecordID: "8b867544-2dab-43a1-be6e-f23ec83c19b4",
			Domain:          exporttask.DomainRaster,
			ArtifactCRS:     exporttask.CRS4326,
			Webhook: []exporttask.Webhook{{
				URL:    "https://hooks.example.com/exports",
				Events: []exporttask.Event{exporttask.EventCompleted},
			}},
		})
		if err != nil {
			t.Fatal(err)
		}
		done, err := srv.Client.Wait(ctx, task.ID, 10*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(done.Status, len(done.Artifacts) > 0)
	}
	_ = testExport
}

// A dry run asks what a create would cost, storing nothing: the server
// checks the request as a create and answers the estimate and the kinds
// of file the export produces.
func ExampleServer_estimate() {
	srv, err := exporttasktest.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	dry, err := srv.Client.Estimate(ctx, exporttask.CreateRequest{
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
	tasks, _, err := srv.Client.List(ctx, client.ListOptions{})
	fmt.Println(dry.ArtifactTypes, dry.RequiredBytes > dry.EstimatedSize, len(tasks), err)
	// Output: [MODEL METADATA ROI LEGEND] true 0 <nil>
}
