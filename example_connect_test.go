package viewer_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	viewer "github.com/openapi-viewer/viewer"
)

// The page's connect-src lets "Try it out" call every server the document
// declares: here a port given by a variable without enum (its default, and
// any port on that host) and a server declared on one path; ConnectSrc adds
// an origin the document does not name.
func ExampleConfig_connectSrc() {
	doc := []byte(`{"openapi": "3.1.0", "info": {"title": "Local", "version": "1"},
  "servers": [{"url": "http://127.0.0.1:{port}/v1", "variables": {"port": {"default": "8080"}}}],
  "paths": {"/reports": {"servers": [{"url": "https://reports.example.com"}], "get": {"responses": {"200": {"description": "ok"}}}}}}`)
	h, err := viewer.NewHandler(viewer.Config{
		FilePathOrSpec: doc,
		UIPath:         "/docs",
		ConnectSrc:     []string{"https://auth.example.com"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/docs/", nil))
	for _, d := range strings.Split(rec.Header().Get("Content-Security-Policy"), "; ") {
		if strings.HasPrefix(d, "connect-src") {
			fmt.Println(d)
		}
	}
	// Output: connect-src 'self' http://127.0.0.1:8080 http://127.0.0.1:* https://reports.example.com https://auth.example.com
}
