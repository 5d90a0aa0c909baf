package simulate_test

import (
	"context"
	"fmt"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
	"os"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
)

// The simulator estimates from the region of interest (the whole record
// here) and exports in Steps slices of Duration.
func ExampleSimulator() {
	sim := simulate.New(simulate.Config{Duration: 40 * time.Millisecond, Steps: 4})
	req := exporttask.CreateRequest{CatalogRecordID: "dem-galilee", Domain: exporttask.DomainDEM,
		ArtifactCRS: exporttask.CRS4326}
	est, err := sim.Estimate(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(est.Size > 0, est.Time)

	task := exporttask.Task{ID: 3, CreateRequest: req, EstimatedSize: est.Size}
	dir, err := os.MkdirTemp("", "simulate-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	artifacts, err := sim.Export(context.Background(), task, printingOutput{testout.New(dir)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range artifacts {
		fmt.Println(a.Type, a.Name, a.Size > 0)
	}
	// Output:
	// true 1
	// progress 1 of 4
	// progress 2 of 4
	// progress 3 of 4
	// MODEL dem-galilee.tif true
	// ROI roi.geojson true
	// METADATA metadata.json true
}

// printingOutput prints each progress report of the Output it wraps.
type printingOutput struct{ *testout.Dir }

func (o printingOutput) Progress(done, total int64) error {
	fmt.Println("progress", done, "of", total)
	return o.Dir.Progress(done, total)
}
