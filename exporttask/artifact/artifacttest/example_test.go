package artifacttest_test

import (
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/artifacttest"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
)

// ExampleRun is how a store's tests run the suite.
func ExampleRun() {
	_ = func(t *testing.T) {
		artifacttest.Run(t, func(t *testing.T) artifact.Store {
			s, err := filestore.Open(t.Context(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	}
}
