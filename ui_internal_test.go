package viewer

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/openapi-viewer/viewer/internal/specdoc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmbeddedDOMPurifyIsCurrent fails when the embedded Swagger UI bundles
// a DOMPurify older than 3.2.4 (3.1.6, in Swagger UI 5.18.2, is affected by
// CVE-2025-26791), so that a downgrade of the Swagger UI module cannot slip
// in; and when the package doc or the README names other versions than the
// embedded ones.
func TestEmbeddedDOMPurifyIsCurrent(t *testing.T) {
	d, err := embeddedUI()
	require.NoError(t, err)
	purify, ok := parseUIVersion(d.dompurify)
	require.True(t, ok, "the embedded bundle names no DOMPurify version (found %q)", d.dompurify)
	assert.True(t, purify.AtLeast(3, 2, 4), "the embedded Swagger UI bundles DOMPurify %s: want 3.2.4 or newer (CVE-2025-26791)", d.dompurify)
	assert.Equal(t, 5, d.version[0], "Swagger UI major version")

	for _, file := range []string{"doc.go", "README.md"} {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		// Comment and Markdown line breaks are spaces here.
		flat := strings.Join(strings.Fields(strings.ReplaceAll(string(text), "//", " ")), " ")
		for _, want := range []string{"DOMPurify " + d.dompurify, `PACKAGE_VERSION "` + d.version.String() + `"`} {
			assert.True(t, strings.Contains(flat, want), "%s does not name the embedded %s", file, want)
		}
	}
}

func TestBundleVersions(t *testing.T) {
	pad := strings.Repeat("x", 64<<10-10) // puts the first marker across the first chunk boundary
	src := pad + `t={PACKAGE_VERSION:"5.35.0",GIT_COMMIT:"g1"}` + strings.Repeat("y", 200<<10) + `DOMPurify.version = '3.4.17',`
	ui, purify, err := bundleVersions(strings.NewReader(src))
	require.NoError(t, err)
	assert.Equal(t, "5.35.0", ui)
	assert.Equal(t, "3.4.17", purify)

	ui, purify, err = bundleVersions(strings.NewReader(`var PACKAGE_VERSION; x={PACKAGE_VERSION:"4.19.1"}`))
	require.NoError(t, err)
	assert.Equal(t, "4.19.1", ui)
	assert.Empty(t, purify)

	ui, _, err = bundleVersions(strings.NewReader(`not a bundle`))
	require.NoError(t, err)
	assert.Empty(t, ui)
}

func TestParseUIVersion(t *testing.T) {
	v, ok := parseUIVersion("5.32.0-rc.1")
	require.True(t, ok)
	assert.Equal(t, specdoc.UIVersion{5, 32, 0}, v)
	assert.True(t, v.RendersOAS32())
	v, _ = parseUIVersion("5.31.9")
	assert.False(t, v.RendersOAS32())
	v, _ = parseUIVersion("6.0.0")
	assert.True(t, v.RendersOAS32())
	for _, bad := range []string{"5.32", "5.x.0", "", "5..0", "5.-1.0", "5.+1.0"} {
		_, ok := parseUIVersion(bad)
		assert.False(t, ok, bad)
	}
}

// TestGzipAsset checks a resource stored gzip-compressed: the gzip variant
// is the stored bytes, identity and brotli decode to the same bytes, each
// has its own ETag, and identity is made only when asked for.
func TestGzipAsset(t *testing.T) {
	want := bytes.Repeat([]byte("function f(){return 'swagger ui';}\n"), 5000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write(want)
	require.NoError(t, err)
	require.NoError(t, zw.Close())

	r := newGzipAsset("bundle.js", "text/javascript; charset=utf-8", gz.Bytes())
	assert.Equal(t, "v="+r.hash(), r.version)

	g := r.variant(encGzip, nil)
	require.NotNil(t, g)
	assert.Equal(t, gz.Bytes(), g.body)
	assert.Equal(t, []string{"gzip"}, g.encoding)

	br := r.variant(encBrotli, nil)
	require.NotNil(t, br)
	assert.Nil(t, r.variants[encIdentity].body, "brotli made from the gzip stream, identity not held")
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br.body)))
	require.NoError(t, err)
	assert.Equal(t, want, got)

	id := r.identity(nil)
	assert.Equal(t, want, id.body)
	assert.Equal(t, len(want), cap(id.body), "identity held in a buffer of its exact size")
	tags := map[string]bool{id.etag[0]: true, g.etag[0]: true, br.etag[0]: true}
	assert.Len(t, tags, 3, "one ETag per encoding")
	assert.Equal(t, `"`+r.hash()+`"`, id.etag[0])

	_, err = gzipSize([]byte("plain text, not gzip"))
	assert.ErrorContains(t, err, "not a gzip file")
}
