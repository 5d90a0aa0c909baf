package viewer_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// fakeDist returns the files of a Swagger UI distribution whose bundle
// names version in its build info, as swagger-ui-dist's does.
func fakeDist(version string) fstest.MapFS {
	bundle := `!function(){var b={PACKAGE_VERSION:"` + version + `",GIT_COMMIT:"g0"};DOMPurify.version="3.4.17";window.SwaggerUIBundle=function(){}}();` +
		strings.Repeat("/* padding so that compression pays */\n", 100)
	return fstest.MapFS{
		"swagger-ui-bundle.js":            {Data: []byte(bundle)},
		"swagger-ui-standalone-preset.js": {Data: []byte("window.SwaggerUIStandalonePreset=function(){};" + strings.Repeat("/* preset */\n", 100))},
		"swagger-ui.css":                  {Data: []byte(".swagger-ui{color:#3b4151}" + strings.Repeat("\n.x{}", 100))},
		"oauth2-redirect.html":            {Data: []byte(`<!doctype html><html><body><script src="oauth2-redirect.js"></script></body></html>`)},
		"oauth2-redirect.js":              {Data: []byte(`"use strict";function run(){/* the dist's own */}run();`)},
		"index.html":                      {Data: []byte("<html>the Petstore demo</html>")},
		"swagger-initializer.js":          {Data: []byte(`window.ui=SwaggerUIBundle({url:"https://petstore.swagger.io/v2/swagger.json"})`)},
	}
}

const oas32 = "openapi: 3.2.0\ninfo: {title: Q, summary: S, version: '1'}\npaths:\n  /a:\n    query:\n      responses: {'200': {description: ok}}\n"

func TestSwaggerUIConfig(t *testing.T) {
	t.Run("5.35.0 renders OpenAPI 3.2", func(t *testing.T) {
		dist := fakeDist("5.35.0")
		h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: viewer.Bytes(oas32), UIPath: "/docs", SwaggerUI: dist,
			OAuth2: &viewer.OAuth2Config{ClientID: "c"}})
		require.NoError(t, err)
		res, page := get(t, h, "/docs/")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.NotRegexp(t, `<script>|<script [^>]*>[^<]+</script>|\son\w+=`, page, "no inline script")
		assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self';")
		assert.NotContains(t, page, "favicon", "the dist has no icons: the page names none")
		var bundleURL string
		for _, ref := range pageRefs(page) {
			if strings.Contains(ref, "swagger-ui-bundle.js") {
				bundleURL = resolve(t, "/docs/", ref)
			}
		}
		require.Contains(t, bundleURL, "?v=", "content-hashed URL")
		res, body := get(t, h, bundleURL)
		assert.Equal(t, string(dist["swagger-ui-bundle.js"].Data), body)
		assert.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"))
		_, js := get(t, h, "/docs/oauth2-redirect.js")
		assert.Equal(t, string(dist["oauth2-redirect.js"].Data), js, "the dist's own redirect script")
		_, redirect := get(t, h, "/docs/oauth2-redirect.html")
		assert.Contains(t, redirect, `<script src="./oauth2-redirect.js"></script>`)
		for _, p := range []string{"/docs/index.html", "/docs/swagger-initializer.js"} {
			_, b := get(t, h, p)
			assert.NotContains(t, b, "petstore", p)
		}
	})

	t.Run("5.31.0 refuses OpenAPI 3.2", func(t *testing.T) {
		_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: viewer.Bytes(oas32), UIPath: "/docs", SwaggerUI: fakeDist("5.31.0")})
		require.ErrorIs(t, err, viewer.ErrInvalidSpec)
		assert.ErrorContains(t, err, `openapi is "3.2.0": the bundled Swagger UI renders OpenAPI 3.0.0 to 3.0.3 and 3.1.x`)
		assert.ErrorContains(t, err, "OpenAPI 3.2 needs Swagger UI 5.32.0 or newer (this one is 5.31.0)")
	})

	t.Run("5.32.0 accepts 3.2.N, refuses 3.3.0", func(t *testing.T) {
		for _, v := range []string{"3.2.0", "3.2.1", "3.2.10"} {
			_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: viewer.Bytes("openapi: " + v + "\ninfo: {title: T, version: '1'}\n"),
				UIPath: "/docs", SwaggerUI: fakeDist("5.32.0")})
			assert.NoError(t, err, v)
		}
		for _, v := range []string{"3.3.0", "3.2.01", "'3.2'"} {
			_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: viewer.Bytes("openapi: " + v + "\ninfo: {title: T, version: '1'}\n"),
				UIPath: "/docs", SwaggerUI: fakeDist("5.32.0")})
			assert.ErrorContains(t, err, "Swagger UI 5.32.0 renders OpenAPI 3.0.0 to 3.0.3, 3.1.x and 3.2.x", v)
		}
	})

	t.Run("gzip-compressed files", func(t *testing.T) {
		dist := fakeDist("5.35.0")
		plain := dist["swagger-ui-bundle.js"].Data
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, err := zw.Write(plain)
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		delete(dist, "swagger-ui-bundle.js")
		dist["swagger-ui-bundle.js.gz"] = &fstest.MapFile{Data: gz.Bytes()}
		delete(dist, "oauth2-redirect.js")
		h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: viewer.Bytes(oas32), UIPath: "/docs", SwaggerUI: dist,
			OAuth2: &viewer.OAuth2Config{ClientID: "c"}})
		require.NoError(t, err)

		res, body := get(t, h, "/docs/swagger-ui-bundle.js", "Accept-Encoding", "gzip")
		assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
		assert.Equal(t, gz.String(), body, "the stored gzip bytes, as they are")
		gzTag := res.Header.Get("ETag")
		res, body = get(t, h, "/docs/swagger-ui-bundle.js", "Accept-Encoding", "br")
		assert.Equal(t, "br", res.Header.Get("Content-Encoding"))
		decoded, err := io.ReadAll(brotli.NewReader(strings.NewReader(body)))
		require.NoError(t, err)
		assert.Equal(t, plain, decoded)
		brTag := res.Header.Get("ETag")
		res, body = get(t, h, "/docs/swagger-ui-bundle.js")
		assert.Empty(t, res.Header.Get("Content-Encoding"))
		assert.Equal(t, string(plain), body)
		idTag := res.Header.Get("ETag")
		assert.Len(t, map[string]bool{gzTag: true, brTag: true, idTag: true}, 3, "an ETag per encoding")
		res, _ = get(t, h, "/docs/swagger-ui-bundle.js", "Accept-Encoding", "gzip", "If-None-Match", gzTag)
		assert.Equal(t, http.StatusNotModified, res.StatusCode)

		_, js := get(t, h, "/docs/oauth2-redirect.js")
		assert.Contains(t, js, "swaggerUIRedirectOauth2", "no oauth2-redirect.js nor inline script: the viewer's own")
	})

	t.Run("inline redirect script", func(t *testing.T) {
		dist := fakeDist("5.0.0")
		delete(dist, "oauth2-redirect.js")
		dist["oauth2-redirect.html"] = &fstest.MapFile{Data: []byte("<html><body><script>run(/* inline */)</script></body></html>")}
		h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", SwaggerUI: dist, OAuth2: &viewer.OAuth2Config{ClientID: "c"}})
		require.NoError(t, err)
		_, js := get(t, h, "/docs/oauth2-redirect.js")
		assert.Equal(t, "run(/* inline */)", js)
	})

	bad := []struct {
		name string
		fsys func() fstest.MapFS
		want string
	}{
		{"Swagger UI 4", func() fstest.MapFS { return fakeDist("4.19.1") },
			"SwaggerUI: swagger-ui-bundle.js is Swagger UI 4.19.1: the viewer needs Swagger UI 5"},
		{"no version", func() fstest.MapFS {
			d := fakeDist("5.35.0")
			d["swagger-ui-bundle.js"] = &fstest.MapFile{Data: []byte("console.log('not Swagger UI')")}
			return d
		}, "SwaggerUI: swagger-ui-bundle.js names no Swagger UI version (no PACKAGE_VERSION in its build info)"},
		{"missing css", func() fstest.MapFS {
			d := fakeDist("5.35.0")
			delete(d, "swagger-ui.css")
			return d
		}, "SwaggerUI has no swagger-ui.css (nor swagger-ui.css.gz)"},
		{"in a directory", func() fstest.MapFS {
			out := fstest.MapFS{}
			for k, v := range fakeDist("5.35.0") {
				out["node_modules/swagger-ui-dist/"+k] = v
			}
			return out
		}, `it is at node_modules/swagger-ui-dist/swagger-ui-bundle.js, so pass fs.Sub(fsys, "node_modules/swagger-ui-dist")`},
		{"broken gzip", func() fstest.MapFS {
			d := fakeDist("5.35.0")
			delete(d, "swagger-ui.css")
			d["swagger-ui.css.gz"] = &fstest.MapFile{Data: []byte("plain text")}
			return d
		}, "swagger-ui.css.gz: gunzip: not a gzip file"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", SwaggerUI: c.fsys()})
			require.Error(t, err)
			assert.True(t, errors.Is(err, viewer.ErrInvalidConfig), "%v", err)
			assert.ErrorContains(t, err, c.want)
		})
	}
}

// TestReloadKeepsSwaggerUI checks that Reload serves the Swagger UI files
// Setup read, without reading them again.
func TestReloadKeepsSwaggerUI(t *testing.T) {
	dist := fakeDist("5.35.0")
	r := viewer.New(viewer.Config{FilePathOrSpec: viewer.Bytes(oas32), UIPath: "/docs", SwaggerUI: dist})
	require.NoError(t, r.Setup())
	_, before := get(t, r, "/docs/swagger-ui.css")
	delete(dist, "swagger-ui.css")
	require.NoError(t, r.Reload())
	_, after := get(t, r, "/docs/swagger-ui.css")
	assert.Equal(t, before, after)
}
