package sqlite_test

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func ExampleOpen() {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()

	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	task, _, err := db.Create(ctx, taskstore.CreateParams{
		Customer: "acme",
		Request: exporttask.CreateRequest{
			CatalogRecordID: "8b867544-2dab-43a1-be6e-f23ec83c19b4",
			Domain:          exporttask.DomainRaster,
			ArtifactCRS:     exporttask.CRS4326,
		},
		EstimatedSize: 1 << 20,
		Now:           now,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(task.ID, task.Status)

	claimed, ok, err := db.Claim(ctx, "worker-1", now.Add(time.Second), time.Minute)
	if err != nil || !ok {
		fmt.Println(ok, err)
		return
	}
	fmt.Println(claimed.ID, claimed.Status)
	// Output:
	// 1 PENDING
	// 1 IN_PROGRESS
}
