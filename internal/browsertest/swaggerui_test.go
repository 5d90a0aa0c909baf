package browsertest

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http/httptest"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer"
)

// oas32Doc is an OpenAPI 3.2 document with what 3.2 adds that Swagger UI
// shows: a QUERY operation and info.summary.
const oas32Doc = `openapi: 3.2.0
info:
  title: Search API
  summary: Finds items with the QUERY method
  version: "1"
paths:
  /items:
    get:
      operationId: listItems
      responses:
        "200": {description: the items}
    query:
      operationId: searchItems
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {text: {type: string}}}
      responses:
        "200": {description: the matching items}
`

// oas31Doc is an OpenAPI 3.1 document with info.summary (new in 3.1).
const oas31Doc = `openapi: 3.1.0
info:
  title: Catalog API
  summary: Lists the catalog
  version: "1"
paths:
  /records:
    get:
      operationId: listRecords
      responses:
        "200": {description: the records}
    post:
      operationId: addRecord
      responses:
        "201": {description: added}
`

// TestSwaggerUIDistributions renders documents with the embedded Swagger UI
// and with swagger-ui-dist 5.35.0 given as Config.SwaggerUI: the package
// tarball (from npm pack swagger-ui-dist@5.35.0) or its unpacked package/
// directory named by VIEWER_SWAGGER_UI_DIST, which .ci/run sets. Without
// it the 5.35.0 cases skip, unless VIEWER_TEST_REQUIRE_CHROMIUM=1 (CI),
// where they fail.
func TestSwaggerUIDistributions(t *testing.T) {
	browser := startBrowser(t)

	t.Run("embedded, OpenAPI 3.1", func(t *testing.T) {
		srv := serve(t, viewer.Config{FilePathOrSpec: viewer.Bytes(oas31Doc), UIPath: "/docs"})
		tb := newTab(t, browser, 60*time.Second)
		checkDist(t, tb, srv, "5.32.8", "Catalog API", "Lists the catalog", map[string]int{"get": 1, "post": 1})
	})

	t.Run("embedded, OpenAPI 3.2", func(t *testing.T) {
		srv := serve(t, viewer.Config{FilePathOrSpec: viewer.Bytes(oas32Doc), UIPath: "/docs"})
		tb := newTab(t, browser, 60*time.Second)
		checkDist(t, tb, srv, "5.32.8", "Search API", "Finds items with the QUERY method", map[string]int{"get": 1, "query": 1})
		var method string
		tb.eval(t, `document.querySelector(".swagger-ui .opblock-query .opblock-summary-method").textContent`, &method)
		assert.Equal(t, "QUERY", method)
	})

	dist := swaggerUIDist(t)
	t.Run("swagger-ui-dist 5.35.0, OpenAPI 3.2", func(t *testing.T) {
		srv := serve(t, viewer.Config{FilePathOrSpec: viewer.Bytes(oas32Doc), UIPath: "/docs", SwaggerUI: dist})
		tb := newTab(t, browser, 60*time.Second)
		checkDist(t, tb, srv, "5.35.0", "Search API", "Finds items with the QUERY method", map[string]int{"get": 1, "query": 1})
		var method string
		tb.eval(t, `document.querySelector(".swagger-ui .opblock-query .opblock-summary-method").textContent`, &method)
		assert.Equal(t, "QUERY", method)
	})

	t.Run("swagger-ui-dist 5.35.0, OpenAPI 3.1", func(t *testing.T) {
		srv := serve(t, viewer.Config{FilePathOrSpec: viewer.Bytes(oas31Doc), UIPath: "/docs", SwaggerUI: dist})
		tb := newTab(t, browser, 60*time.Second)
		checkDist(t, tb, srv, "5.35.0", "Catalog API", "Lists the catalog", map[string]int{"get": 1, "post": 1})
	})
}

// checkDist loads the page with ?url= pointing elsewhere and checks that
// Swagger UI of version ui rendered the served document anyway: its title
// and summary, one block per method in ops, every Swagger UI file under a
// content-hashed URL, no error box, no console error, no policy violation
// and no request leaving the test server.
func checkDist(t *testing.T, tb *tab, srv *httptest.Server, ui, title, summary string, ops map[string]int) {
	t.Helper()
	var got, gotSummary, version string
	tb.run(t, "loading the page",
		chromedp.Navigate(srv.URL+"/docs/?url=https://attacker.example/evil.json"),
		chromedp.WaitVisible(".swagger-ui .info .title"),
		chromedp.Text(".swagger-ui .info .title", &got))
	assert.Contains(t, got, title, "?url= is ignored: the served document is shown")
	want := 0
	for _, n := range ops {
		want += n
	}
	tb.waitCount(t, ".swagger-ui .opblock", want)
	for method, n := range ops {
		var count int
		tb.eval(t, `document.querySelectorAll(".swagger-ui .opblock-`+method+`").length`, &count)
		assert.Equal(t, n, count, "%s operations", method)
	}
	tb.eval(t, `(document.querySelector(".swagger-ui .info__summary") || {}).textContent || ""`, &gotSummary)
	assert.Equal(t, summary, gotSummary, "info.summary")
	tb.eval(t, `(window.versions && window.versions.swaggerUI && window.versions.swaggerUI.version) || ""`, &version)
	assert.Equal(t, ui, version, "the Swagger UI that ran")
	var errorBoxes int
	tb.eval(t, `document.querySelectorAll(".swagger-ui .errors-wrapper").length`, &errorBoxes)
	assert.Zero(t, errorBoxes, "Swagger UI shows errors")

	assert.Empty(t, tb.cspViolations(t), "securitypolicyviolation events")
	problems, requests := tb.report()
	assert.Empty(t, problems, "console errors, exceptions, error log entries")
	hashed := 0
	for _, u := range requests {
		if strings.HasPrefix(u, "data:") {
			continue
		}
		assert.True(t, strings.HasPrefix(u, srv.URL+"/"), "request to another server: %s", u)
		if strings.Contains(u, "/swagger-ui") {
			assert.Contains(t, u, "?v=", "Swagger UI's files have content-hashed URLs")
			hashed++
		}
	}
	assert.Equal(t, 2, hashed, "swagger-ui.css and swagger-ui-bundle.js loaded")
}

// swaggerUIDist returns the swagger-ui-dist files VIEWER_SWAGGER_UI_DIST
// names (a directory, or a .tgz from npm pack, read into memory without its
// package/ prefix), or skips the test (fails it under CI).
func swaggerUIDist(t *testing.T) fs.FS {
	t.Helper()
	p := os.Getenv("VIEWER_SWAGGER_UI_DIST")
	if p == "" {
		if os.Getenv("VIEWER_TEST_REQUIRE_CHROMIUM") == "1" {
			t.Fatal("VIEWER_SWAGGER_UI_DIST is required with VIEWER_TEST_REQUIRE_CHROMIUM=1: npm pack swagger-ui-dist@5.35.0 and set it to the .tgz (.ci/run does)")
		}
		t.Skip("VIEWER_SWAGGER_UI_DIST is not set (npm pack swagger-ui-dist@5.35.0, then set it to the .tgz): skipping the Config.SwaggerUI cases")
	}
	st, err := os.Stat(p)
	require.NoError(t, err, "VIEWER_SWAGGER_UI_DIST")
	if st.IsDir() {
		return os.DirFS(p)
	}
	f, err := os.Open(p)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err, "VIEWER_SWAGGER_UI_DIST: want a directory or npm pack's .tgz")
	files := fstest.MapFS{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "reading %s", p)
		name, ok := strings.CutPrefix(path.Clean(h.Name), "package/")
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		require.NoError(t, err)
		files[name] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	require.Contains(t, files, "swagger-ui-bundle.js", "%s is not a swagger-ui-dist package", p)
	return files
}
