package demo_test

import (
	"context"
	"fmt"
	"os"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
)

// Write creates the demo catalog once; a second call finds it complete.
func ExampleWrite() {
	root, err := os.MkdirTemp("", "demo-catalog-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	n, err := demo.Write(root)
	fmt.Println("written:", n, err)
	n, err = demo.Write(root)
	fmt.Println("written again:", n, err)

	cat, err := catalog.Open(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, id := range []string{demo.RasterID, demo.DEMID, demo.Tiles3DID} {
		rec, err := cat.Record(context.Background(), id)
		fmt.Println(rec.Domain, rec.ID, err)
	}
	// Output:
	// written: 3 <nil>
	// written again: 0 <nil>
	// RASTER 8b867544-2dab-43a1-be6e-f23ec83c19b4 <nil>
	// DEM 3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60 <nil>
	// 3D c0ffee00-3d3d-4d3d-8d3d-0123456789ab <nil>
}
