// Package gdaltest runs GDAL's command-line tools as independent readers in
// this module's tests. Start with [Info], which runs `gdalinfo -json` on a
// file and decodes the parts the tests check; [Require] decides whether a
// missing tool skips the test or fails it (when VIEWER_TEST_REQUIRE_GDAL=1).
package gdaltest
