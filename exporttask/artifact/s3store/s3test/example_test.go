package s3test_test

import (
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
)

func ExampleStart() {
	_ = func(t *testing.T) {
		srv := s3test.Start(t) // skips (or fails with VIEWER_TEST_REQUIRE_S3=1) without a server
		store, err := s3store.New(srv.Config(t))
		if err != nil {
			t.Fatal(err)
		}
		_ = store // empty: each Config has its own prefix
	}
}
