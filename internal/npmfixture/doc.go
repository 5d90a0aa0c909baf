// Package npmfixture gives tests the published npm data they compare the
// viewer with, fetched at test time (never committed) by the repository's
// scripts/fetch-*.sh.
//
// [MultiFileSwagger] returns the multi-file-swagger example and a
// swagger-cli to bundle it with. Without npm the tests that need it skip,
// unless VIEWER_TEST_REQUIRE_NODE=1 asks them to fail (.ci/run sets it).
package npmfixture
