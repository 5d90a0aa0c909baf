package viewer_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	swguistatic "github.com/swaggest/swgui/v5/static"

	viewer "github.com/openapi-viewer/viewer"
)

// TestHeaders checks the HTTP rules of every kind of response, in the shape
// of net/http's fs_test.go: request headers in, status and headers out.
func TestHeaders(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi",
		OAuth2: &viewer.OAuth2Config{ClientID: "docs"}})
	require.NoError(t, r.Setup())
	h := r.GetRouter()

	// Learn the current URLs and ETags from plain requests.
	_, page := get(t, h, "/docs/")
	bundleURL := ""
	for _, ref := range pageRefs(page) {
		if strings.Contains(ref, "swagger-ui-bundle.js") {
			bundleURL = resolve(t, "/docs/", ref)
		}
	}
	require.NotEmpty(t, bundleURL)
	etag := func(target string, header ...string) string {
		res, _ := get(t, h, target, header...)
		require.NotEmpty(t, res.Header.Get("ETag"), target)
		return res.Header.Get("ETag")
	}
	pageTag := etag("/docs/")
	specTag := etag("/openapi.json")
	specGzipTag := etag("/openapi.json", "Accept-Encoding", "gzip")
	bundleTag := etag(bundleURL)
	bundleBrTag := etag(bundleURL, "Accept-Encoding", "br")
	bundleSize := strconv.Itoa(len(embeddedBundle(t)))

	const absent = "<absent>"
	cases := []struct {
		name       string
		method     string
		target     string
		reqHeader  []string
		wantStatus int
		wantHeader map[string]string // absent: the header must not be sent
		wantBody   string            // "": no check; absent: empty body
	}{
		{name: "page", target: "/docs/", wantStatus: 200, wantHeader: map[string]string{
			"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache", "ETag": pageTag,
			"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Vary": "Accept-Encoding",
			"Content-Encoding": absent}},
		{name: "page not modified", target: "/docs/", reqHeader: []string{"If-None-Match", pageTag}, wantStatus: 304,
			wantHeader: map[string]string{"ETag": pageTag, "Content-Type": absent, "Content-Length": absent, "Content-Encoding": absent},
			wantBody:   absent},
		{name: "page etag mismatch", target: "/docs/", reqHeader: []string{"If-None-Match", `"other"`}, wantStatus: 200,
			wantHeader: map[string]string{"ETag": pageTag}},
		{name: "page If-None-Match star", target: "/docs/", reqHeader: []string{"If-None-Match", "*"}, wantStatus: 304, wantBody: absent},
		{name: "page If-None-Match list", target: "/docs/", reqHeader: []string{"If-None-Match", `"a", ` + pageTag}, wantStatus: 304, wantBody: absent},
		{name: "index.html is the page", target: "/docs/index.html", wantStatus: 200, wantHeader: map[string]string{"ETag": pageTag}},
		{name: "HEAD page", method: "HEAD", target: "/docs/", wantStatus: 200,
			wantHeader: map[string]string{"ETag": pageTag, "Content-Type": "text/html; charset=utf-8"}, wantBody: absent},
		{name: "spec JSON", target: "/openapi.json", wantStatus: 200, wantHeader: map[string]string{
			"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache", "ETag": specTag,
			"Vary": "Accept-Encoding", "Content-Encoding": absent, "Content-Security-Policy": absent}},
		{name: "spec gzip", target: "/openapi.json", reqHeader: []string{"Accept-Encoding", "gzip"}, wantStatus: 200,
			wantHeader: map[string]string{"Content-Encoding": "gzip", "ETag": specGzipTag, "Vary": "Accept-Encoding"}},
		{name: "spec gzip ETag differs", target: "/openapi.json", reqHeader: []string{"Accept-Encoding", "gzip", "If-None-Match", specTag},
			wantStatus: 200, wantHeader: map[string]string{"ETag": specGzipTag}},
		{name: "spec gzip not modified", target: "/openapi.json", reqHeader: []string{"Accept-Encoding", "gzip", "If-None-Match", specGzipTag},
			wantStatus: 304, wantHeader: map[string]string{"Content-Encoding": absent, "Content-Length": absent, "Vary": "Accept-Encoding"}, wantBody: absent},
		{name: "spec YAML", target: "/openapi.yaml", wantStatus: 200, wantHeader: map[string]string{"Content-Type": "application/yaml; charset=utf-8", "Cache-Control": "no-cache"}},
		{name: "bundle versioned", target: bundleURL, wantStatus: 200, wantHeader: map[string]string{
			"Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable", "ETag": bundleTag}},
		{name: "bundle unversioned", target: "/docs/swagger-ui-bundle.js", wantStatus: 200, wantHeader: map[string]string{"Cache-Control": "no-cache", "ETag": bundleTag}},
		{name: "bundle stale version", target: "/docs/swagger-ui-bundle.js?v=0000", wantStatus: 200, wantHeader: map[string]string{"Cache-Control": "no-cache"}},
		{name: "bundle br", target: bundleURL, reqHeader: []string{"Accept-Encoding", "gzip, deflate, br"}, wantStatus: 200,
			wantHeader: map[string]string{"Content-Encoding": "br", "ETag": bundleBrTag}},
		{name: "bundle br q-values prefer gzip", target: bundleURL, reqHeader: []string{"Accept-Encoding", "br;q=0.2, gzip;q=0.9"}, wantStatus: 200,
			wantHeader: map[string]string{"Content-Encoding": "gzip"}},
		{name: "bundle identity when encodings refused", target: bundleURL, reqHeader: []string{"Accept-Encoding", "gzip;q=0, br;q=0"}, wantStatus: 200,
			wantHeader: map[string]string{"Content-Encoding": absent, "ETag": bundleTag, "Content-Length": bundleSize}},
		{name: "bundle range", target: bundleURL, reqHeader: []string{"Range", "bytes=0-9"}, wantStatus: 206,
			wantHeader: map[string]string{"Content-Range": "bytes 0-9/" + bundleSize, "Content-Length": "10"}},
		{name: "bundle If-Range mismatch ignores range", target: bundleURL, reqHeader: []string{"Range", "bytes=0-9", "If-Range", `"old"`}, wantStatus: 200},
		{name: "If-Match mismatch", target: "/openapi.json", reqHeader: []string{"If-Match", `"old"`}, wantStatus: 412},
		{name: "png is never compressed", target: "/docs/favicon-32x32.png", reqHeader: []string{"Accept-Encoding", "gzip, br"}, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "image/png", "Content-Encoding": absent, "Vary": absent}},
		{name: "POST is 405", method: "POST", target: "/docs/", wantStatus: 405, wantHeader: map[string]string{"Allow": "GET, HEAD"}},
		{name: "PUT spec is 405", method: "PUT", target: "/openapi.json", wantStatus: 405, wantHeader: map[string]string{"Allow": "GET, HEAD"}},
		{name: "DELETE redirect path is 405", method: "DELETE", target: "/docs", wantStatus: 405, wantHeader: map[string]string{"Allow": "GET, HEAD"}},
		{name: "redirect keeps query", target: "/docs?deep=1", wantStatus: 301, wantHeader: map[string]string{"Location": "./docs/?deep=1"}},
		{name: "HEAD redirect", method: "HEAD", target: "/docs", wantStatus: 301, wantHeader: map[string]string{"Location": "./docs/"}},
		{name: "shipped index.css is not served", target: "/docs/index.css", wantStatus: 404},
		{name: "shipped initializer is not served", target: "/docs/swagger-initializer.js", wantStatus: 404},
		{name: "source maps are not served", target: "/docs/swagger-ui-bundle.js.map", wantStatus: 404},
		{name: "oauth2 redirect page", target: "/docs/oauth2-redirect.html", wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'; script-src 'self'; frame-ancestors 'self'; base-uri 'none'"}},
		{name: "oauth2 redirect script", target: "/docs/oauth2-redirect.js", wantStatus: 200, wantHeader: map[string]string{"Content-Type": "text/javascript; charset=utf-8"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = http.MethodGet
			}
			res, body := do(t, h, method, c.target, c.reqHeader...)
			assert.Equal(t, c.wantStatus, res.StatusCode)
			for k, v := range c.wantHeader {
				if v == absent {
					assert.Empty(t, res.Header.Values(k), "header %s must be absent", k)
				} else {
					assert.Equal(t, v, res.Header.Get(k), "header %s", k)
				}
			}
			if c.wantBody == absent {
				assert.Empty(t, body)
			} else if c.wantBody != "" {
				assert.Equal(t, c.wantBody, body)
			}
		})
	}
}

// TestHEADMatchesGET checks that HEAD answers exactly GET's headers.
func TestHEADMatchesGET(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, err)
	for _, p := range []string{"/docs/", "/openapi.json", "/openapi.yml", "/docs/swagger-ui.css"} {
		for _, enc := range []string{"", "gzip", "br"} {
			g, gbody := do(t, h, http.MethodGet, p, "Accept-Encoding", enc)
			hd, hbody := do(t, h, http.MethodHead, p, "Accept-Encoding", enc)
			assert.Equal(t, g.Header, hd.Header, "%s %s", p, enc)
			assert.NotEmpty(t, gbody)
			assert.Empty(t, hbody)
		}
	}
}

// TestCompressedBodiesDecode checks that each encoding decodes to the
// identity bytes.
func TestCompressedBodiesDecode(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, err)
	for _, p := range []string{"/openapi.json", "/openapi.yaml", "/docs/swagger-ui-bundle.js", "/docs/"} {
		_, plain := get(t, h, p)
		res, gz := get(t, h, p, "Accept-Encoding", "gzip")
		require.Equal(t, "gzip", res.Header.Get("Content-Encoding"), p)
		zr, err := gzip.NewReader(strings.NewReader(gz))
		require.NoError(t, err)
		got, err := io.ReadAll(zr)
		require.NoError(t, err)
		assert.Equal(t, plain, string(got), p)
		assert.Less(t, len(gz), len(plain), p)

		res, br := get(t, h, p, "Accept-Encoding", "br")
		require.Equal(t, "br", res.Header.Get("Content-Encoding"), p)
		got, err = io.ReadAll(brotli.NewReader(bytes.NewReader([]byte(br))))
		require.NoError(t, err)
		assert.Equal(t, plain, string(got), p)
		assert.Less(t, len(br), len(gz), p)
	}
}

// TestSecurityHeaders checks the page's policy: no inline script, framing by
// the same origin only, connections to the document's servers.
func TestSecurityHeaders(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs",
		CustomJS: []string{"https://cdn.example.com/a.js", "console.log(1)"}, OAuth2: &viewer.OAuth2Config{ClientID: "docs"}})
	require.NoError(t, err)
	res, page := get(t, h, "/docs/")
	csp := res.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "default-src 'none'")
	assert.Contains(t, csp, "script-src 'self' https://cdn.example.com;")
	assert.NotContains(t, csp, "unsafe-inline")
	assert.NotContains(t, csp, "unsafe-eval")
	assert.Contains(t, csp, "frame-ancestors 'self'")
	assert.Contains(t, csp, "connect-src 'self' http://petstore.swagger.io")
	assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
	assert.NotRegexp(t, `<script>|<script [^>]*>[^<]+</script>|\son\w+=`, page, "no inline script or handler in the page")
	assert.NotContains(t, page, "petstore.swagger.io/v2/swagger.json", "never the shipped Petstore demo")

	res, _ = get(t, h, "/docs/oauth2-redirect.html")
	_, redirect := get(t, h, "/docs/oauth2-redirect.html")
	assert.NotContains(t, redirect, "<script>", "the OAuth2 page's script is served as a file")
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self'")
}

// TestStyleHash checks the one exception to style-src 'self': the inline
// <style> in the logo of the top bar, which only the page with several
// documents (StandaloneLayout) shows, allowed by its hash and never by
// 'unsafe-inline'. If a Swagger UI upgrade changes that style, the
// preset no longer contains it and this test fails (and the real-browser
// test in internal/browsertest reports the violation).
func TestStyleHash(t *testing.T) {
	const logoStyle = ".logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}"
	const logoHash = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='" // of logoStyle

	one, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs"})
	require.NoError(t, err)
	res, _ := get(t, one, "/docs/")
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "; style-src 'self'; ")

	several, err := viewer.NewHandler(viewer.Config{UIPath: "/docs", Specs: []viewer.SpecSource{
		{Name: "A", FilePathOrSpec: petstore}, {Name: "B", FilePathOrSpec: petstore}}})
	require.NoError(t, err)
	res, page := get(t, several, "/docs/")
	csp := res.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "; style-src 'self' "+logoHash+"; ")
	assert.NotContains(t, csp, "unsafe-inline")
	presetURL := ""
	for _, ref := range pageRefs(page) {
		if strings.Contains(ref, "swagger-ui-standalone-preset.js") {
			presetURL = resolve(t, "/docs/", ref)
		}
	}
	require.NotEmpty(t, presetURL, "the page loads the standalone preset")
	_, preset := get(t, several, presetURL)
	assert.Contains(t, preset, logoStyle, "the preset's logo style is the text the hash allows")
}

// TestPathsCannotEscape tries spellings of paths that must never reach
// anything outside the viewer's routes, nor redirect off-site.
func TestPathsCannotEscape(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, r.Setup())
	app := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := r.Middleware(app)
	cases := []struct {
		target     string
		wantStatus int
	}{
		{"/docs/../openapi.json", 200},      // cleaned: still the viewer's
		{"/docs//swagger-ui.css", 200},      // cleaned
		{"/docs/./index.html", 200},         // cleaned
		{"/docs/..%2fopenapi.json", 418},    // encoded slash: not the viewer's
		{"/docs%2fswagger-ui.css", 418},     // encoded slash
		{"/docs/%5c..%5copenapi.json", 418}, // encoded backslash
		{"/docs/swagger-ui.css/", 418},
		{"/docs/../../etc/passwd", 418},
		{"//evil.com", 418},
		{"/docs/.", 418}, // would make the relative redirect resolve elsewhere
		{"/docs/..", 418},
	}
	for _, c := range cases {
		res, _ := get(t, h, c.target)
		assert.Equal(t, c.wantStatus, res.StatusCode, c.target)
	}
	// The only redirect is relative to the requested path.
	for _, target := range []string{"/docs", "//docs", "/x/../docs", "/docs?next=//evil.com"} {
		res, _ := get(t, h, target)
		if res.StatusCode != http.StatusMovedPermanently {
			continue
		}
		loc := res.Header.Get("Location")
		assert.True(t, strings.HasPrefix(loc, "./docs/"), "Location %q for %s", loc, target)
		assert.Equal(t, "/", resolve(t, "http://host"+target, loc)[len("http://host"):][:1])
		assert.True(t, strings.HasPrefix(resolve(t, "http://host"+target, loc), "http://host/"), "stays on the host: %s", target)
	}
	// A backslash in a decoded path is never the viewer's.
	req, _ := http.NewRequest(http.MethodGet, "http://host/docs/", nil)
	req.URL.Path = `/docs\swagger-ui.css`
	rec := &recorder{header: http.Header{}}
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusTeapot, rec.code)
}

type recorder struct {
	header http.Header
	code   int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *recorder) WriteHeader(code int)        { r.code = code }

func TestYAMLContentTypeOption(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi",
		YAMLContentType: "text/plain; charset=utf-8"})
	require.NoError(t, err)
	for _, p := range []string{"/openapi.yaml", "/openapi.yml"} {
		res, _ := get(t, h, p)
		assert.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
	}
}

// embeddedBundle returns the embedded swagger-ui-bundle.js, decompressed.
func embeddedBundle(t *testing.T) []byte {
	t.Helper()
	f, err := swguistatic.FS.Open("swagger-ui-bundle.js.gz")
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	b, err := io.ReadAll(zr)
	require.NoError(t, err)
	return b
}
