package viewer_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// outer is a middleware that sets headers before the viewer runs, as a
// CORS or caching middleware does.
func outer(next http.Handler, header ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Add(header[i], header[i+1])
		}
		next.ServeHTTP(w, req)
	})
}

// TestOuterHeadersKept checks which headers the viewer leaves to an outer
// middleware: Vary is appended to, Cache-Control, X-Content-Type-Options
// and Referrer-Policy are set only when absent; the policy and the headers
// that describe the body are the viewer's.
func TestOuterHeadersKept(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, r.Setup())
	cases := []struct {
		name   string
		target string
		outer  []string
		want   map[string][]string
	}{
		{"Vary appended", "/openapi.json", []string{"Vary", "Origin"},
			map[string][]string{"Vary": {"Origin, Accept-Encoding"}}},
		{"Vary lines joined", "/openapi.json", []string{"Vary", "Origin", "Vary", "Cookie"},
			map[string][]string{"Vary": {"Origin, Cookie, Accept-Encoding"}}},
		{"Vary already listed", "/openapi.json", []string{"Vary", "origin, accept-encoding"},
			map[string][]string{"Vary": {"origin, accept-encoding"}}},
		{"Vary star", "/openapi.json", []string{"Vary", "*"}, map[string][]string{"Vary": {"*"}}},
		{"no outer Vary", "/openapi.json", nil, map[string][]string{"Vary": {"Accept-Encoding"}}},
		{"Cache-Control kept on a document", "/openapi.json", []string{"Cache-Control", "no-store"},
			map[string][]string{"Cache-Control": {"no-store"}}},
		{"Cache-Control kept on the page", "/docs/", []string{"Cache-Control", "private, max-age=60"},
			map[string][]string{"Cache-Control": {"private, max-age=60"}}},
		{"security headers kept", "/docs/", []string{"Referrer-Policy", "same-origin", "X-Content-Type-Options", "nosniff"},
			map[string][]string{"Referrer-Policy": {"same-origin"}, "X-Content-Type-Options": {"nosniff"}}},
		{"the page's policy is the viewer's", "/docs/", []string{"Content-Security-Policy", "default-src 'self'"},
			map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}},
		{"body headers are the viewer's", "/openapi.json", []string{"Content-Type", "text/plain", "ETag", `"outer"`},
			map[string][]string{"Content-Type": {"application/json; charset=utf-8"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, h := range []http.Handler{outer(r, c.outer...), outer(r.Middleware(http.NotFoundHandler()), c.outer...)} {
				res, body := get(t, h, c.target)
				require.Equal(t, http.StatusOK, res.StatusCode)
				require.NotEmpty(t, body)
				for k, v := range c.want {
					assert.Equal(t, v, res.Header.Values(k), k)
				}
				if c.name == "the page's policy is the viewer's" {
					assert.Len(t, res.Header.Values("Content-Security-Policy"), 1)
					assert.Contains(t, res.Header.Get("Content-Security-Policy"), "default-src 'none'")
				}
				if c.name == "body headers are the viewer's" {
					assert.NotEqual(t, `"outer"`, res.Header.Get("ETag"))
				}
			}
		})
	}

	// A conditional request keeps them too, and still gets its 304.
	_, _ = get(t, r, "/openapi.json")
	res, _ := get(t, r, "/openapi.json")
	tag := res.Header.Get("ETag")
	res, _ = get(t, outer(r, "Vary", "Origin", "Cache-Control", "no-store"), "/openapi.json", "If-None-Match", tag)
	assert.Equal(t, http.StatusNotModified, res.StatusCode)
	assert.Equal(t, "Origin, Accept-Encoding", res.Header.Get("Vary"))
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
}

// TestBeforeSetup checks that a router mounted before Setup answers 503
// with a plain body, over a real connection, and serves once Setup
// succeeds; a failed Setup leaves it answering 503.
func TestBeforeSetup(t *testing.T) {
	r := viewer.New(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs"})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	check := func(wantStatus int, wantBody string) {
		t.Helper()
		res, err := srv.Client().Get(srv.URL + "/docs/")
		require.NoError(t, err, "the connection must not be dropped")
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		assert.Equal(t, wantStatus, res.StatusCode)
		assert.Contains(t, string(body), wantBody)
		if wantStatus == http.StatusServiceUnavailable {
			assert.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
		}
	}
	check(http.StatusServiceUnavailable, "Setup has not succeeded")
	require.NoError(t, r.Setup())
	check(http.StatusOK, "<!DOCTYPE html>")

	broken := viewer.New(viewer.Config{FilePathOrSpec: []byte("nope: 1\n"), UIPath: "/docs"})
	require.Error(t, broken.Setup())
	res, body := get(t, broken, "/docs/")
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	assert.True(t, strings.HasPrefix(body, "503 service unavailable"), body)
	// GetRouter keeps its documented behaviour: it panics before Setup.
	assert.Panics(t, func() { broken.GetRouter() })
}
