package dem_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

func Example() {
	data, _ := os.MkdirTemp("", "dem-record-")
	defer os.RemoveAll(data)
	rec := catalog.Record{
		ID: "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60", Domain: exporttask.DomainDEM,
		Footprint:  exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		Resolution: 1.0 / 120, // 120×120 pixels
		Location:   data,
	}
	if err := dem.WriteDemoSource(data, rec); err != nil {
		fmt.Println(err)
		return
	}
	// Registering reads the GeoTIFF: its valid pixels' box and its file.
	got, err := dem.Inspect(context.Background(), catalog.Source{Path: filepath.Join(data, dem.DemoFile)})
	if err != nil {
		fmt.Println(err)
		return
	}
	rec.Source = got.Source
	fmt.Println("format:", got.Source.Format, "resolution:", got.Resolution*120)
	// The whole footprint, as the dispatcher in package export builds Jobs.
	job, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain})
	if err != nil {
		fmt.Println(err)
		return
	}

	outDir, _ := os.MkdirTemp("", "dem-out-")
	defer os.RemoveAll(outDir)
	e := dem.New(dem.Options{})
	est, _ := e.Estimate(context.Background(), job)
	arts, err := e.Export(context.Background(), job, testout.New(outDir))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range arts {
		fmt.Println(a.Type, a.Name)
	}
	total := arts[0].Size + arts[1].Size + arts[2].Size
	fmt.Println("estimate within 50%:", math.Abs(float64(est.Size-total)) < float64(total)/2)
	// Output:
	// format: GTiff resolution: 1
	// MODEL 3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60.tif
	// ROI roi.geojson
	// METADATA metadata.json
	// estimate within 50%: true
}
