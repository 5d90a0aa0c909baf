// Package s3test gives tests an S3-compatible server on loopback: the one
// named by the environment, or a Versity Gateway (versitygw) it starts
// itself in a temporary directory.
//
//	func TestSomething(t *testing.T) {
//		srv := s3test.Start(t) // skips without a server
//		store, err := s3store.New(srv.Config(t)) // a fresh prefix per call
//		...
//	}
//
// [Start] looks, in order, for:
//   - VIEWER_TEST_S3_ENDPOINT (with VIEWER_TEST_S3_ACCESS_KEY,
//     VIEWER_TEST_S3_SECRET_KEY and optionally VIEWER_TEST_S3_BUCKET,
//     default "viewer-test"): a running server, as CI starts with .ci/s3.sh;
//   - a versitygw binary on PATH or in $GOPATH/bin (`go install
//     github.com/versity/versitygw/cmd/versitygw@v1.8.0`), started for the
//     test on a free loopback port and stopped after it.
//
// Without either the test is skipped, unless VIEWER_TEST_REQUIRE_S3=1 (as
// CI sets), which makes it fail.
//
// [StartVersity] starts a gateway outside tests (benchmarks).
package s3test
