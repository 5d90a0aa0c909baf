package storetest_test

import (
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// A store implementation runs the suite from its own tests, with a fresh
// empty store per case. (The example is compiled, not run: it needs a
// *testing.T.)
func ExampleRun() {
	testConformance := func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) taskstore.Store {
			db, err := sqlite.Open(t.Context(), sqlite.Memory)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			return db
		})
	}
	_ = testConformance
}
