// Package testkit is the one home of the helpers this module's own tests
// and benchmarks share (downstream users have package exporttasktest;
// store implementations have the conformance suite of package storetest):
//
//   - stores: [OpenStore] (in-memory SQLite), [ForEachStore],
//     [OpenConcurrently], [SignalStore] (tells a test that a Run loop has
//     started), [RecordingStore] (records webhook outcomes);
//   - tasks and requests: [CreateTask], [WaitStatus], [SampleRequestTo],
//     [CreateParams], [BenchParams];
//   - workers: [FastRunner], [FastDeliverer], [Background],
//     [NoLeftoverGoroutines], [Receive];
//   - HTTP: [Receiver] (a webhook endpoint that verifies signatures),
//     [SpecChecker] (checks every response against the OpenAPI
//     description);
//   - benchmarks: [RunClients] runs an operation from concurrent clients
//     and reports latency percentiles.
//
// For example:
//
//	func BenchmarkCreate(b *testing.B) {
//		db := benchDB(b)
//		testkit.RunClients(b, 32, func(i int64) error {
//			_, _, err := db.Create(b.Context(), testkit.BenchParams("acme", i))
//			return err
//		})
//	}
package testkit
