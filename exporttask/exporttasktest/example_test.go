package exporttasktest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
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
