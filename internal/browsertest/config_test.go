package browsertest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer"
)

// TestConfigInBrowser checks Config values that used to fail only in the
// browser: a data: Favicon is the page's icon, and a scheme-relative
// CustomJS URL on another origin runs under the page's policy.
func TestConfigInBrowser(t *testing.T) {
	browser := startBrowser(t)
	scripts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`window.__customRan = true;`))
	}))
	t.Cleanup(scripts.Close)
	const icon = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
	srv := serve(t, viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs",
		Favicon:  icon,
		CustomJS: []string{strings.TrimPrefix(scripts.URL, "http:") + "/custom.js"},
	})
	tb := newTab(t, browser, 60*time.Second)
	tb.load(t, srv.URL+"/docs/")
	tb.waitTrue(t, "window.__customRan === true")
	var href string
	tb.eval(t, `document.querySelector("link[rel=icon]").href`, &href)
	assert.Equal(t, icon, href)
	tb.assertClean(t)
}
