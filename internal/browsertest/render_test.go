package browsertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer"
)

const petstore = "../../testdata/wild/petstore-expanded.yaml"

// TestChromium loads the viewer's page in headless Chromium in several set-ups.
func TestChromium(t *testing.T) {
	browser := startBrowser(t)

	t.Run("petstore", func(t *testing.T) {
		srv := serve(t, viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs"})
		tb := newTab(t, browser, 60*time.Second)
		checkPage(t, tb, srv, srv.URL+"/docs/", srv.URL+"/docs/openapi.json", "Swagger Petstore")
		if os.Getenv("VIEWER_UPDATE_SCREENSHOT") == "1" {
			var png []byte
			tb.run(t, "taking the screenshot", chromedp.FullScreenshot(&png, 100))
			require.NoError(t, os.MkdirAll("../../docs", 0o755))
			require.NoError(t, os.WriteFile(filepath.Join("../../docs", "screenshot.png"), png, 0o644))
			t.Logf("wrote docs/screenshot.png (%d bytes)", len(png))
		}
	})

	t.Run("prefix", func(t *testing.T) {
		r, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs"})
		require.NoError(t, err)
		mux := http.NewServeMux()
		mux.Handle("/prefix/", http.StripPrefix("/prefix", r))
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		tb := newTab(t, browser, 60*time.Second)
		// Without the trailing slash: the viewer's relative redirect must
		// keep the prefix it never saw.
		checkPage(t, tb, srv, srv.URL+"/prefix/docs", srv.URL+"/prefix/docs/openapi.json", "Swagger Petstore")
		var loc string
		tb.run(t, "reading the location", chromedp.Location(&loc))
		assert.Equal(t, srv.URL+"/prefix/docs/", loc)
		_, requests := tb.report()
		for _, u := range requests {
			if !strings.HasPrefix(u, "data:") {
				assert.True(t, strings.HasPrefix(u, srv.URL+"/prefix/docs"), "request outside the prefix: %s", u)
			}
		}
	})

	t.Run("specs", func(t *testing.T) {
		srv := serve(t, viewer.Config{UIPath: "/docs", Specs: []viewer.SpecSource{
			{Name: "Pets", FilePathOrSpec: petstore},
			{Name: "Callbacks", FilePathOrSpec: "../../testdata/wild/callback-example.yaml"},
		}})
		tb := newTab(t, browser, 60*time.Second)
		checkPage(t, tb, srv, srv.URL+"/docs/", srv.URL+"/docs/specs/pets.json", "Swagger Petstore")

		// StandaloneLayout: the top bar with the documents' drop-down.
		var names []string
		tb.eval(t, `Array.from(document.querySelectorAll(".swagger-ui .topbar .download-url-wrapper select option")).map(o => o.textContent)`, &names)
		assert.Equal(t, []string{"Pets", "Callbacks"}, names)

		// Picking the second document shows it.
		tb.eval(t, `(() => {
  const s = document.querySelector(".swagger-ui .topbar .download-url-wrapper select");
  s.selectedIndex = 1;
  s.dispatchEvent(new Event("change", {bubbles: true}));
  return true;
})()`, new(bool))
		tb.waitTrue(t, `((document.querySelector(".swagger-ui .info .title") || {}).textContent || "").includes("Callback Example")`)
		want := countOperations(t, fetch(t, srv, srv.URL+"/docs/specs/callbacks.json"))
		assert.Equal(t, want.blocks, tb.waitCount(t, ".swagger-ui .opblock", want.blocks))
		problems, _ := tb.report()
		assert.Empty(t, problems)
		assert.Empty(t, tb.cspViolations(t))
	})

	t.Run("github", func(t *testing.T) {
		spec := os.Getenv("VIEWER_GITHUB_SPEC")
		if spec == "" {
			t.Skip("VIEWER_GITHUB_SPEC is not set: export VIEWER_GITHUB_SPEC=$(scripts/fetch-github-spec.sh)")
		}
		srv := serve(t, viewer.Config{FilePathOrSpec: spec, UIPath: "/docs", DocExpansion: "list"})
		tb := newTab(t, browser, 5*time.Minute)
		start := time.Now()
		checkPage(t, tb, srv, srv.URL+"/docs/", srv.URL+"/docs/openapi.json", "GitHub")
		t.Logf("GitHub's description rendered in %v", time.Since(start).Round(time.Millisecond))
	})
}

// serve starts the viewer for cfg on loopback.
func serve(t *testing.T, cfg viewer.Config) *httptest.Server {
	t.Helper()
	h, err := viewer.NewHandler(cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// fetch GETs a URL from the test server and returns the body.
func fetch(t *testing.T, srv *httptest.Server, u string) []byte {
	t.Helper()
	res, err := srv.Client().Get(u)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, u)
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return body
}

// checkPage loads pageURL in the tab and checks that Swagger UI rendered
// the document served at specURL: its title, one block per operation, every
// tag section open (docExpansion "list"), no error box, no console error,
// no policy violation, and no request leaving the test server.
func checkPage(t *testing.T, tb *tab, srv *httptest.Server, pageURL, specURL, title string) {
	t.Helper()
	want := countOperations(t, fetch(t, srv, specURL))
	require.Positive(t, want.operations, "the document has no operations")
	t.Logf("%s: %d operations, %d blocks expected in %d tags", specURL, want.operations, want.blocks, want.tags)

	var got string
	tb.run(t, "loading "+pageURL,
		chromedp.Navigate(pageURL),
		chromedp.WaitVisible(".swagger-ui .info .title"),
		chromedp.Text(".swagger-ui .info .title", &got))
	assert.Contains(t, got, title)

	tb.waitCount(t, ".swagger-ui .opblock", want.blocks)
	var blocks, sections, open, errorBoxes int
	tb.eval(t, `document.querySelectorAll(".swagger-ui .opblock").length`, &blocks)
	tb.eval(t, `document.querySelectorAll(".swagger-ui .opblock-tag-section").length`, &sections)
	tb.eval(t, `document.querySelectorAll(".swagger-ui .opblock-tag-section.is-open").length`, &open)
	tb.eval(t, `document.querySelectorAll(".swagger-ui .errors-wrapper").length`, &errorBoxes)
	assert.Equal(t, want.blocks, blocks, "operation blocks")
	assert.Equal(t, want.tags, sections, "tag sections")
	assert.Equal(t, want.tags, open, "open tag sections (docExpansion list)")
	assert.Zero(t, errorBoxes, "Swagger UI shows errors")

	assert.Empty(t, tb.cspViolations(t), "securitypolicyviolation events")
	problems, requests := tb.report()
	assert.Empty(t, problems, "console errors, exceptions, error log entries")
	require.NotEmpty(t, requests)
	for _, u := range requests {
		if !strings.HasPrefix(u, "data:") {
			assert.True(t, strings.HasPrefix(u, srv.URL+"/"), "request to another server: %s", u)
		}
	}
}
