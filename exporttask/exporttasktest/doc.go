// Package exporttasktest starts a complete export task server for tests, as
// net/http/httptest does for handlers: one call gives a ready server on
// loopback, backed by an in-memory SQLite store, with fast simulated exports
// whose files (in a temporary directory) can be downloaded,
// its workers and webhook delivery running, and a client with a valid key.
// Everything stops when the test ends.
//
//	func TestMyIntegration(t *testing.T) {
//		srv := exporttasktest.NewServer(t)
//		task, err := srv.Client.Create(ctx, req)
//		...
//	}
package exporttasktest
