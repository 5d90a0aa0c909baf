package viewer_test

import "testing"

// BenchmarkSetupMultiFile measures Setup of a real spec split over some
// fifty files, bundled into one (bytes/s are of the root file only).
func BenchmarkSetupMultiFile(b *testing.B) {
	benchSetup(b, "testdata/wild/redocly-cafe/openapi.yaml")
}
