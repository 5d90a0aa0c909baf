package gdaltest_test

import (
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// In a test: d := gdaltest.Info(t, "dem.tif", "-stats") runs gdalinfo, skips
// the test when it is not installed, and fails it instead when CI sets the
// variable below.
func ExampleRequire() {
	fmt.Println(gdaltest.RequireEnv + "=1")
	// Output: VIEWER_TEST_REQUIRE_GDAL=1
}
