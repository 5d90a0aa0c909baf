package viewer_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// policyDirective returns the directive of a policy that starts with name.
func policyDirective(csp, name string) string {
	for _, d := range strings.Split(csp, "; ") {
		if strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}

func TestFavicon(t *testing.T) {
	const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
	cases := []struct {
		favicon string
		wantImg string // the img-src directive
	}{
		{png, "img-src 'self' data: https:"},
		{"data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E", ""}, // refused below: quotes
		{"https://cdn.example.com/icon.png", "img-src 'self' data: https:"},
		{"http://cdn.example.com/icon.png", "img-src 'self' data: https: http://cdn.example.com"},
		{"//cdn.example.com/icon.png", "img-src 'self' data: https: cdn.example.com"},
		{"/static/icon.png", "img-src 'self' data: https:"},
		{"icon.png", "img-src 'self' data: https:"},
	}
	for _, c := range cases {
		h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Favicon: c.favicon})
		if c.wantImg == "" {
			require.Error(t, err, c.favicon)
			continue
		}
		require.NoError(t, err, c.favicon)
		res, page := get(t, h, "/docs/")
		assert.Contains(t, page, `<link rel="icon" href="`+c.favicon+`">`, "rendered as given")
		assert.NotContains(t, page, "ZgotmplZ")
		assert.Equal(t, c.wantImg, policyDirective(res.Header.Get("Content-Security-Policy"), "img-src"), c.favicon)
	}
	for _, bad := range []string{"javascript:alert(1)", "data:text/html,<b>x</b>", "data:text/html;base64,PGI+", "data:image/png;base64", "icon .png", `x"y.png`} {
		_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Favicon: bad})
		require.Error(t, err, bad)
		assert.True(t, errors.Is(err, viewer.ErrInvalidConfig), bad)
		assert.Contains(t, err.Error(), "Favicon", bad)
	}
	_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Favicon: "data:text/plain,hi"})
	assert.ErrorContains(t, err, `must be an http(s) URL, a path, or an image as a data: URL such as "data:image/png;base64,..."`)
}

func TestCustomJSRules(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", CustomJS: []string{
		"//cdn.example.com/a.js",
		"https://cdn2.example.com/b(1).js",
		"./local.js",
		"alert(1)",
		"window.x = 1",
	}})
	require.NoError(t, err)
	res, page := get(t, h, "/docs/")
	assert.Equal(t, "script-src 'self' cdn.example.com https://cdn2.example.com",
		policyDirective(res.Header.Get("Content-Security-Policy"), "script-src"))
	refs := pageRefs(page)
	assert.Contains(t, refs, "//cdn.example.com/a.js")
	assert.Contains(t, refs, "https://cdn2.example.com/b(1).js", "a URL with parentheses is still a URL, written as given")
	assert.Contains(t, refs, "./local.js")
	var served []string
	for _, ref := range refs {
		if strings.Contains(ref, "custom-") {
			_, body := get(t, h, resolve(t, "/docs/", ref))
			served = append(served, body)
		}
	}
	assert.Equal(t, []string{"alert(1)", "window.x = 1"}, served, "only source is served as script")

	for _, c := range []struct{ entry, want string }{
		{"custom.js", `write "./custom.js" for a file next to the page, "/custom.js" for a path on this host`},
		{"js/app.js", `"./js/app.js"`},
		{"data:text/javascript,alert", "neither a URL nor JavaScript source"},
		{"   ", "is empty"},
		{`/a.js"onload="x`, "is not a valid URL"},
	} {
		_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", CustomJS: []string{"alert(1)", c.entry}})
		require.Error(t, err, c.entry)
		assert.True(t, errors.Is(err, viewer.ErrInvalidConfig))
		assert.Contains(t, err.Error(), "CustomJS[1]")
		assert.Contains(t, err.Error(), c.want)
	}
}

// TestOAuth2RedirectPage checks when the redirect page is served: with
// Config.OAuth2, or when a document declares an OAuth2 or OpenID Connect
// scheme (Swagger UI then authorizes with a client id typed by the user).
func TestOAuth2RedirectPage(t *testing.T) {
	const head = `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}`
	cases := []struct {
		name   string
		cfg    viewer.Config
		served bool
	}{
		{"no OAuth2", viewer.Config{FilePathOrSpec: petstore}, false},
		{"Config.OAuth2", viewer.Config{FilePathOrSpec: petstore, OAuth2: &viewer.OAuth2Config{ClientID: "c"}}, true},
		{"oauth2 scheme", viewer.Config{FilePathOrSpec: []byte(head + `,"components":{"securitySchemes":{"o":{"type":"oauth2","flows":{}}}}}`)}, true},
		{"openIdConnect scheme", viewer.Config{FilePathOrSpec: []byte(head + `,"components":{"securitySchemes":{"o":{"type":"openIdConnect","openIdConnectUrl":"https://id.example.com/x"}}}}`)}, true},
		{"Swagger 2.0 oauth2", viewer.Config{FilePathOrSpec: []byte(`{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{},"securityDefinitions":{"o":{"type":"oauth2","flow":"implicit","authorizationUrl":"https://a.example.com"}}}`)}, true},
		{"API key only", viewer.Config{FilePathOrSpec: []byte(head + `,"components":{"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X"}}}}`)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.UIPath = "/docs"
			h, err := viewer.NewHandler(c.cfg)
			require.NoError(t, err)
			for _, p := range []string{"/docs/oauth2-redirect.html", "/docs/oauth2-redirect.js"} {
				res, _ := get(t, h, p)
				if c.served {
					assert.Equal(t, http.StatusOK, res.StatusCode, p)
				} else {
					assert.Equal(t, http.StatusNotFound, res.StatusCode, p)
				}
			}
		})
	}
}

// TestRawPathWithExtension checks that a RawPath written with the
// extension of one of its forms ("/openapi.json") serves the three forms
// under its stem, as a user writing it expects, and never a doubled
// extension; and that one with nothing before the extension is refused.
func TestRawPathWithExtension(t *testing.T) {
	for _, raw := range []string{"/openapi", "/openapi.json", "/openapi.yaml", "/openapi.yml"} {
		t.Run(raw, func(t *testing.T) {
			h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: raw})
			require.NoError(t, err)
			for p, wantType := range map[string]string{"/openapi.json": "application/json", "/openapi.yaml": "application/yaml", "/openapi.yml": "application/yaml"} {
				res, body := get(t, h, p)
				require.Equal(t, http.StatusOK, res.StatusCode, p)
				assert.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), wantType), "%s: %s", p, res.Header.Get("Content-Type"))
				assert.Contains(t, body, "Swagger Petstore", p)
			}
			for _, p := range []string{"/openapi.json.json", "/openapi.json.yaml", "/openapi.yaml.json", "/openapi.yml.yml"} {
				res, _ := get(t, h, p)
				assert.Equal(t, http.StatusNotFound, res.StatusCode, p)
			}
		})
	}
	for raw, fix := range map[string]string{"/.json": `write "/openapi"`, "/api/.yaml": `write "/api/openapi"`} {
		_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", RawPath: raw})
		require.ErrorIs(t, err, viewer.ErrInvalidConfig, raw)
		assert.ErrorContains(t, err, "has no name before its extension: "+fix, raw)
	}
}

// TestTheme checks how Config.Theme reaches the page: as the root
// element's data-theme, which the served initializer reads, and for "dark"
// as Swagger UI's dark-mode class written into the page; any other value
// is refused. (internal/browsertest checks the colors in Chromium.)
func TestTheme(t *testing.T) {
	for theme, wantRoot := range map[string]string{
		"":      `<html lang="en" data-theme="auto">`,
		"auto":  `<html lang="en" data-theme="auto">`,
		"light": `<html lang="en" data-theme="light">`,
		"dark":  `<html lang="en" class="dark-mode" data-theme="dark">`,
	} {
		h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Theme: theme})
		require.NoError(t, err, theme)
		res, page := get(t, h, "/docs/")
		assert.Contains(t, page, "<!DOCTYPE html>\n"+wantRoot+"\n", "theme %q", theme)
		assert.NotRegexp(t, `<script>|<script [^>]*>[^<]+</script>|\son\w+=`, page, "no inline script")
		assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self';")
	}
	for _, bad := range []string{"Dark", "system", "black"} {
		_, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Theme: bad})
		require.ErrorIs(t, err, viewer.ErrInvalidConfig, bad)
		assert.ErrorContains(t, err, `Theme "`+bad+`" must be "auto", "light" or "dark"`)
	}
}

// TestPageEscapesTitle checks that the title is HTML-escaped in the page.
func TestPageEscapesTitle(t *testing.T) {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Title: `</title><script>alert("x" & 'y')</script>`})
	require.NoError(t, err)
	_, page := get(t, h, "/docs/")
	assert.Contains(t, page, "<title>&lt;/title&gt;&lt;script&gt;alert(&#34;x&#34; &amp; &#39;y&#39;)&lt;/script&gt;</title>")
}
