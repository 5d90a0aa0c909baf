package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// List a task's webhook deliveries with their outcome, then ask for one
// again. The receiver here is on loopback, which the server is told to
// allow.
func ExampleClient_Redeliver() {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	srv, err := exporttasktest.Start(exporttasktest.WithTaskDuration(20*time.Millisecond),
		exporttasktest.WithWebhookAllow(netip.MustParsePrefix("127.0.0.0/8")))
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
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		Webhook: []exporttask.Webhook{{
			URL:    receiver.URL + "/exports",
			Events: []exporttask.Event{exporttask.EventCompleted},
		}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// Poll until the delivery is over.
	var ds []exporttask.WebhookDelivery
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ds, _, err = c.Deliveries(ctx, task.ID, client.DeliveryListOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		if len(ds) == 1 && ds[0].Status != exporttask.DeliveryStatusPending {
			break
		}
	}
	if len(ds) == 0 {
		fmt.Println("no delivery listed")
		return
	}
	for _, d := range ds {
		fmt.Println(d.Event, d.Status, d.Attempts)
	}

	again, err := c.Redeliver(ctx, task.ID, ds[0].ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(again.Event, again.Status, again.ID > ds[0].ID)
	// Output:
	// TASK_COMPLETED DELIVERED 1
	// TASK_COMPLETED PENDING true
}
