package viewer_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	swguistatic "github.com/swaggest/swgui/v5/static"

	viewer "github.com/openapi-viewer/viewer"
)

// TestOnlyTheFilesThePageUsesAreServed checks the package doc's promise:
// the standalone preset is served only with the drop-down of several
// documents, and Swagger UI's icons only when Config.Favicon does not
// replace them; every file the page names is served.
func TestOnlyTheFilesThePageUsesAreServed(t *testing.T) {
	cases := []struct {
		name       string
		cfg        viewer.Config
		wantPreset bool
		wantIcons  bool
	}{
		{"one document", viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs"}, false, true},
		{"several documents", viewer.Config{UIPath: "/docs", Specs: []viewer.SpecSource{
			{Name: "A", FilePathOrSpec: petstore}, {Name: "B", FilePathOrSpec: petstore}}}, true, true},
		{"own favicon", viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", Favicon: "/icon.png"}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := viewer.NewHandler(c.cfg)
			require.NoError(t, err)
			_, page := get(t, h, "/docs/")
			for _, ref := range pageRefs(page) {
				if strings.HasPrefix(ref, "./") {
					res, _ := get(t, h, resolve(t, "/docs/", ref))
					assert.Equal(t, http.StatusOK, res.StatusCode, ref)
				}
			}
			want := map[bool]int{true: http.StatusOK, false: http.StatusNotFound}
			res, _ := get(t, h, "/docs/swagger-ui-standalone-preset.js")
			assert.Equal(t, want[c.wantPreset], res.StatusCode, "standalone preset")
			assert.Equal(t, c.wantPreset, strings.Contains(page, "swagger-ui-standalone-preset.js"), "page names the preset")
			for _, icon := range []string{"favicon-32x32.png", "favicon-16x16.png"} {
				res, _ := get(t, h, "/docs/"+icon)
				assert.Equal(t, want[c.wantIcons], res.StatusCode, icon)
			}
		})
	}
}

// TestOAuth2RedirectScriptIsTheBundles checks that, with the embedded
// Swagger UI, the OAuth2 redirect page runs the module's own
// oauth2-redirect.js (a file, so it runs under the page's script-src
// 'self'), not the viewer's fallback.
func TestOAuth2RedirectScriptIsTheBundles(t *testing.T) {
	f, err := swguistatic.FS.Open("oauth2-redirect.js.gz")
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	want, err := io.ReadAll(zr)
	require.NoError(t, err)

	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: petstore, UIPath: "/docs", OAuth2: &viewer.OAuth2Config{ClientID: "c"}})
	require.NoError(t, err)
	res, page := get(t, h, "/docs/oauth2-redirect.html")
	assert.Contains(t, page, `<script src="./oauth2-redirect.js"></script>`)
	assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self'")
	_, js := get(t, h, "/docs/oauth2-redirect.js")
	assert.Equal(t, string(want), js)
}
