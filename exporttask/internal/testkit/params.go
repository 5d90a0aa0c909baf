package testkit

import (
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// CreateParams returns a small DEM request of customer for record, with an
// estimated size of 10 bytes, made at a fixed time, with the request's
// fingerprint (see [taskstore.Identity]) but without dedup key,
// Idempotency-Key or quota.
func CreateParams(customer, record string) taskstore.CreateParams {
	r := exporttask.CreateRequest{
		CatalogRecordID: record,
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
	}
	fp, err := taskstore.RequestFingerprint(r)
	if err != nil {
		panic(err) // a request of plain values always encodes
	}
	return taskstore.CreateParams{
		Customer:      customer,
		Request:       r,
		Identity:      taskstore.Identity{Fingerprint: fp},
		EstimatedSize: 10,
		Now:           time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC),
	}
}

// BenchParams returns the i-th distinct request of a benchmark, by
// customer: a raster export of record-i with a webhook, its dedup key,
// an estimate of 1 MiB and 30 s, and a quota never reached.
func BenchParams(customer string, i int64) taskstore.CreateParams {
	r := exporttask.CreateRequest{
		CatalogRecordID: fmt.Sprintf("record-%d", i),
		Domain:          exporttask.DomainRaster,
		ArtifactCRS:     exporttask.CRS4326,
		Description:     "benchmark",
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.com/x",
			Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}}},
	}
	id, _ := taskstore.Identify(r, "")
	return taskstore.CreateParams{Customer: customer, Request: r, Identity: id,
		EstimatedSize: 1 << 20, EstimatedTime: 30, Quota: 1 << 50, Now: time.Now()}
}
