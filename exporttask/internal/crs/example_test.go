package crs_test

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
)

func ExampleFromEPSG() {
	c, err := crs.FromEPSG(32636)
	if err != nil {
		fmt.Println(err)
		return
	}
	lon, lat, ok := c.ToLonLat(500000, 3500000)
	fmt.Printf("%s: %.6f %.6f %v\n", c.Name(), lon, lat, ok)
	x, y, _ := c.FromLonLat(lon, lat)
	fmt.Printf("back: %.3f %.3f\n", x, y)
	_, err = crs.FromEPSG(3035)
	fmt.Println(err)
	// Output:
	// WGS 84 / UTM zone 36N: 33.000000 31.635186 true
	// back: 500000.000 3500000.000
	// the CRS EPSG:3035 is not one this engine can transform
}
