// Package storetest is the conformance suite of [taskstore.Store]: every
// implementation runs it from its own tests, so they all keep the same
// contract.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) taskstore.Store {
//			db, err := sqlite.Open(t.Context(), sqlite.Memory)
//			require.NoError(t, err)
//			return db
//		})
//	}
//
// [Run] covers the whole contract on one store; [RunShared] checks what must
// also hold between several stores over one database (replicas): no task
// or delivery claimed twice, one quota, one dedup.
//
// The suite drives the store with a fixed clock: every time it passes is
// derived from one instant, so lease, retry and expiry cases are exact and
// never sleep.
package storetest
