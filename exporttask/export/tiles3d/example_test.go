package tiles3d_test

import (
	"context"
	"fmt"
	"os"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

func Example() {
	data, _ := os.MkdirTemp("", "3d-record-")
	defer os.RemoveAll(data)
	rec := catalog.Record{
		ID: "c0ffee00-3d3d-4d3d-8d3d-0123456789ab", Domain: exporttask.Domain3D,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   7, MaxZoom: 8,
		Location: data,
	}
	if err := tiles3d.WriteDemoSource(data, rec); err != nil {
		fmt.Println(err)
		return
	}
	// A ROI of lon 34.1–34.3, lat 31.1–31.3, as the dispatcher in package
	// export builds Jobs.
	roi := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type:     exporttask.TypeFeature,
		Geometry: exporttask.NewPolygon([]exporttask.Position{{34.1, 31.1}, {34.3, 31.1}, {34.3, 31.3}, {34.1, 31.3}, {34.1, 31.1}}),
	}}}
	job, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi})
	if err != nil {
		fmt.Println(err)
		return
	}

	outDir, _ := os.MkdirTemp("", "3d-out-")
	defer os.RemoveAll(outDir)
	arts, err := tiles3d.New(tiles3d.Options{}).Export(context.Background(), job, testout.New(outDir))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range arts {
		fmt.Println(a.Type, a.Name)
	}
	// Output:
	// 3D_MODEL c0ffee00-3d3d-4d3d-8d3d-0123456789ab.zip
	// THUMBNAILS_SMALL thumbnail-small.png
	// THUMBNAILS_MEDIUM thumbnail-medium.png
	// THUMBNAILS_LARGE thumbnail-large.png
	// METADATA metadata.json
}
