// Package exporttasktest starts a complete export task server for tests, as
// net/http/httptest does for handlers: one call gives a ready server on
// loopback, backed by an in-memory SQLite store, with fast simulated exports
// whose files (in a temporary directory) can be downloaded,
// its workers and webhook delivery running, and a client with a valid key.
// Everything stops when the test ends.
//
// The simulated exports name and type their artifacts as the real
// exporters do (a DEM task gives <record id>.tif, roi.geojson and
// metadata.json), with small stand-in bytes. [WithRealExports] runs the
// real exporters instead, over a catalog directory or the demo catalog,
// for a test that needs the real files (a Cloud Optimized GeoTIFF, a
// GeoPackage, a 3D Tiles zip).
//
//	func TestMyIntegration(t *testing.T) {
//		srv := exporttasktest.NewServer(t)
//		task, err := srv.Client.Create(ctx, req)
//		...
//	}
package exporttasktest
