package raster_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

func Example() {
	dir, err := os.MkdirTemp("", "raster-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	// A record of the demo relief over lon 34–35, lat 31–32, levels 6 to 8.
	rec := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster,
		Footprint: square(34, 31, 35, 32), MinZoom: 6, MaxZoom: 8, Location: dir}
	if err := raster.WriteDemoSource(dir, rec); err != nil {
		fmt.Println(err)
		return
	}

	// Export a small square of it.
	j, err := export.NewJob(rec, exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain,
		ROI: roiOf(square(34.1, 31.1, 34.3, 31.3))})
	if err != nil {
		fmt.Println(err)
		return
	}
	outDir, err := os.MkdirTemp("", "raster-example-out-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(outDir)
	arts, err := raster.New(raster.Options{}).Export(context.Background(), j, testout.New(outDir))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range arts {
		fmt.Println(a.Type, a.Name)
	}
	// Output:
	// GPKG 8b867544-2dab-43a1-be6e-f23ec83c19b4.gpkg
	// THUMBNAILS_SMALL thumbnail-small.png
	// THUMBNAILS_MEDIUM thumbnail-medium.png
	// THUMBNAILS_LARGE thumbnail-large.png
	// METADATA metadata.json
}

func ExampleInspect() {
	dir, err := os.MkdirTemp("", "raster-inspect-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// A source to register: here the demo relief, levels 6 to 8. Any
	// GeoPackage on the InspireCRS84Quad grid, or gdal2tiles directory
	// (Format "TMS" or "XYZ"), does as well.
	demo := catalog.Record{ID: recordID, Domain: exporttask.DomainRaster,
		Footprint: square(34, 31, 35, 32), MinZoom: 6, MaxZoom: 8}
	if err := raster.WriteDemoSource(dir, demo); err != nil {
		fmt.Println(err)
		return
	}

	rec, err := raster.Inspect(context.Background(), catalog.Source{
		Path: filepath.Join(dir, raster.SourceName), Format: raster.FormatGPKG, Table: raster.TilesTable})
	if err != nil {
		fmt.Println(err) // a *export.SourceError: "FILE: PROBLEM; FIX"
		return
	}
	fmt.Println(rec.Domain, rec.Source.Format, rec.Source.Table, rec.MinZoom, rec.MaxZoom)
	fmt.Println(rec.Footprint.Type, rec.Footprint.Polygon)
	// Output:
	// RASTER GPKG tiles 6 8
	// Polygon [[[34 31] [35 31] [35 32] [34 32] [34 31]]]
}
