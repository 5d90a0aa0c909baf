// Package testkit holds the helpers that the tests and benchmarks of
// the store packages (exporttask/sqlite, exporttask/postgres) share:
// request fixtures, opening a store concurrently, and running a benchmark's
// operation from concurrent clients with latency percentiles.
//
//	func BenchmarkCreate(b *testing.B) {
//		db := benchDB(b)
//		testkit.RunClients(b, 32, func(i int64) error {
//			_, _, err := db.Create(b.Context(), testkit.BenchParams("acme", i))
//			return err
//		})
//	}
//
// The conformance suite every store must pass is package storetest.
package testkit
