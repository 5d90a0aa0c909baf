package catalog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

func Example() {
	root, err := os.MkdirTemp("", "catalog-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)

	rec := catalog.Record{
		ID:        "8B867544-2DAB-43A1-BE6E-F23EC83C19B4", // stored in lower case
		Domain:    exporttask.DomainRaster,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}}),
		MinZoom:   0, MaxZoom: 3,
	}
	err = catalog.WriteRecord(root, rec, func(dir string) error {
		return os.WriteFile(filepath.Join(dir, "tiles.gpkg"), nil, 0o644) // the record's data
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	cat, err := catalog.Open(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	got, err := cat.Record(context.Background(), "8b867544-2dab-43a1-be6e-f23ec83c19b4")
	fmt.Println(got.ID, got.Domain, got.MaxZoom, filepath.Base(got.Location), err)
	_, err = cat.Record(context.Background(), "../etc")
	fmt.Println(err)
	// Output:
	// 8b867544-2dab-43a1-be6e-f23ec83c19b4 RASTER 3 8b867544-2dab-43a1-be6e-f23ec83c19b4 <nil>
	// catalog: "../etc" is not a UUID: catalog record not found
}
