package simulate_test

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
)

// The simulator estimates from the region of interest (the whole record
// here) and exports in Steps slices of Duration.
func ExampleSimulator() {
	sim := simulate.New(simulate.Config{Duration: 40 * time.Millisecond, Steps: 4,
		BaseURL: "https://downloads.example.com/exports"})
	req := exporttask.CreateRequest{CatalogRecordID: "dem-galilee", Domain: exporttask.DomainDEM,
		ArtifactCRS: exporttask.CRS4326}
	est, err := sim.Estimate(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(est.Size > 0, est.Time)

	task := exporttask.Task{ID: 3, CreateRequest: req, EstimatedSize: est.Size}
	artifacts, err := sim.Export(context.Background(), task, func(p int) error {
		fmt.Println("progress", p)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range artifacts {
		fmt.Println(a.Type, a.URL)
	}
	// Output:
	// true 1
	// progress 25
	// progress 50
	// progress 75
	// MODEL https://downloads.example.com/exports/3/dem-galilee.tif
	// METADATA https://downloads.example.com/exports/3/dem-galilee_metadata.json
	// ROI https://downloads.example.com/exports/3/dem-galilee_roi.geojson
	// LEGEND https://downloads.example.com/exports/3/dem-galilee_legend.pdf
}
