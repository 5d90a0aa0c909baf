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
	// Output: [MODEL ROI METADATA] true 0 <nil>
}

// A downstream test that needs the real files runs the real exporters
// over the demo catalog (or its own, given as a directory), and gets the
// artifacts the example server would give: here a DEM's GeoTIFF, its ROI
// and its STAC metadata.
func ExampleWithRealExports() {
	srv, err := exporttasktest.Start(exporttasktest.WithRealExports(""))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	task, err := srv.Client.Create(ctx, exporttask.CreateRequest{
		CatalogRecordID: "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", // the demo DEM
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature, Properties: map[string]any{},
			Geometry: exporttask.NewPolygon([]exporttask.Position{{34.5, 31.5}, {34.51, 31.5}, {34.51, 31.51}, {34.5, 31.51}, {34.5, 31.5}}),
		}}},
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.com/x", Events: []exporttask.Event{exporttask.EventCompleted}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	done, err := srv.Client.Wait(ctx, task.ID, 20*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(done.Status)
	for _, a := range done.Artifacts {
		fmt.Println(a.Type, a.Name)
	}
	// Output:
	// COMPLETED
	// MODEL 3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60.tif
	// ROI roi.geojson
	// METADATA metadata.json
}

// The simulated exports (the default) name and type their artifacts as
// the real exporters do, so a test written against one holds for the
// other; only the bytes are stand-ins.
func ExampleNewServer_simulatedNames() {
	srv, err := exporttasktest.Start(exporttasktest.WithTaskDuration(10 * time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	task, err := srv.Client.Create(ctx, exporttask.CreateRequest{
		CatalogRecordID: "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60",
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		Webhook:         []exporttask.Webhook{{URL: "https://hooks.example.com/x", Events: []exporttask.Event{exporttask.EventCompleted}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	done, err := srv.Client.Wait(ctx, task.ID, 10*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range done.Artifacts {
		fmt.Println(a.Type, a.Name)
	}
	// Output:
	// MODEL 3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60.tif
	// ROI roi.geojson
	// METADATA metadata.json
}
