package register_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

// Add registers a GeoPackage tile pyramid where it is; List and Remove
// manage the catalog. Here the pyramid is the demo's, at levels 0 to 3; a
// team's would come from gdal_translate -of GPKG -co
// TILING_SCHEME=InspireCRS84Quad.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "register-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	err = raster.WriteDemoSource(dir, catalog.Record{ID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
		Domain:    exporttask.DomainRaster,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   0, MaxZoom: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	root := filepath.Join(dir, "catalog")
	rec, err := register.Add(ctx, root, filepath.Join(dir, "tiles.gpkg"), register.Options{
		Domain: exporttask.DomainRaster,
		ID:     "0B3C7F1E-5D2A-4C8E-9F61-2A7D4E9B1C05", // default: a random UUID
		Title:  "Shaded relief",                        // default: the data's title, or the file's name
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.ID, rec.Domain, rec.Title, rec.MinZoom, rec.MaxZoom)
	fmt.Println(rec.Source.Path == filepath.Join(dir, "tiles.gpkg"), rec.Source.Format, rec.Source.Table)

	// A file that is not a tile pyramid is refused, and nothing is written.
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("not a GeoPackage"), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	_, err = register.Add(ctx, root, notes, register.Options{Domain: exporttask.DomainRaster})
	var se *export.SourceError
	fmt.Println(errors.As(err, &se), se != nil && se.File == notes)

	cat, err := catalog.Open(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	recs, err := cat.List(ctx)
	fmt.Println(len(recs), err)
	fmt.Println(cat.Remove(ctx, rec.ID))
	_, err = os.Stat(filepath.Join(dir, "tiles.gpkg"))
	fmt.Println("source still there:", err == nil)
	// Output:
	// 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05 RASTER Shaded relief 0 3
	// true GPKG tiles
	// true true
	// 1 <nil>
	// <nil>
	// source still there: true
}
