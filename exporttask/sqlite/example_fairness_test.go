package sqlite_test

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Claims take turns among customers, and WithMaxRunningPerCustomer caps
// the tasks of one customer running at once.
func ExampleWithMaxRunningPerCustomer() {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, sqlite.Memory, sqlite.WithMaxRunningPerCustomer(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()

	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	for _, c := range []struct{ customer, record string }{
		{"acme", "rec-1"}, {"acme", "rec-2"}, {"acme", "rec-3"}, {"globex", "rec-4"},
	} {
		r := exporttask.CreateRequest{CatalogRecordID: c.record, Domain: exporttask.DomainRaster, ArtifactCRS: exporttask.CRS4326}
		id, err := taskstore.Identify(r, "")
		if err != nil {
			fmt.Println(err)
			return
		}
		if _, _, err := db.Create(ctx, taskstore.CreateParams{Customer: c.customer, Request: r, Identity: id, Now: now}); err != nil {
			fmt.Println(err)
			return
		}
	}
	for w := range 3 {
		t, ok, err := db.Claim(ctx, fmt.Sprintf("worker-%d", w), now, time.Minute)
		if err != nil {
			fmt.Println(err)
			return
		}
		if !ok {
			fmt.Println("nothing to claim: acme runs one already")
			continue
		}
		fmt.Println("claimed task", t.ID, "of", t.CatalogRecordID)
	}
	// Output:
	// claimed task 1 of rec-1
	// claimed task 4 of rec-4
	// nothing to claim: acme runs one already
}
