package postgres_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// A replica opens the shared database and creates a task; another replica
// (or this one) claims it.
func ExampleOpen() {
	ctx := context.Background()
	db, err := postgres.Open(ctx, os.Getenv("EXPORTTASK_POSTGRES_DSN"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()

	now := time.Now()
	task, replayed, err := db.Create(ctx, taskstore.CreateParams{
		Customer: "acme",
		Request: exporttask.CreateRequest{
			CatalogRecordID: "8b867544-2dab-43a1-be6e-f23ec83c19b4",
			Domain:          exporttask.DomainDEM,
			ArtifactCRS:     exporttask.CRS4326,
		},
		EstimatedSize: 1 << 20,
		Quota:         1 << 30,
		Now:           now,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(task.ID, task.Status, replayed)

	if t, ok, err := db.Claim(ctx, "replica-1/worker-1", now, time.Minute); err == nil && ok {
		fmt.Println("claimed", t.ID)
	}
}
