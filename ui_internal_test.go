package viewer

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/openapi-viewer/viewer/internal/specdoc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	swguistatic "github.com/swaggest/swgui/v5/static"
)

// advisory is a published vulnerability of Swagger UI's bundle, with the
// versions that fix it.
type advisory struct {
	id     string
	purify specdoc.UIVersion // the first DOMPurify without it
	ui     specdoc.UIVersion // the first Swagger UI without it, or zero
}

// uiAdvisories are the advisories against the DOMPurify that Swagger UI
// bundles which the embedded Swagger UI must be free of.
func uiAdvisories() []advisory {
	return []advisory{
		{id: "GHSA-39q2-94rc-95cp", purify: specdoc.UIVersion{3, 4, 0}},
		{id: "CVE-2026-49458", purify: specdoc.UIVersion{3, 4, 7}, ui: specdoc.UIVersion{5, 32, 7}},
		{id: "CVE-2026-49459", purify: specdoc.UIVersion{3, 4, 7}, ui: specdoc.UIVersion{5, 32, 7}},
		{id: "CVE-2026-49978", purify: specdoc.UIVersion{3, 4, 7}, ui: specdoc.UIVersion{5, 32, 7}},
	}
}

// affectedBy returns the advisories that Swagger UI ui bundling DOMPurify
// purify is not known to be free of, each with the versions that fix it.
func affectedBy(ui, purify specdoc.UIVersion) []string {
	var out []string
	for _, a := range uiAdvisories() {
		if !purify.AtLeast(a.purify[0], a.purify[1], a.purify[2]) {
			out = append(out, fmt.Sprintf("%s (fixed in DOMPurify %s)", a.id, a.purify))
		} else if a.ui != (specdoc.UIVersion{}) && !ui.AtLeast(a.ui[0], a.ui[1], a.ui[2]) {
			out = append(out, fmt.Sprintf("%s (fixed in Swagger UI %s)", a.id, a.ui))
		}
	}
	return out
}

func TestAffectedBy(t *testing.T) {
	assert.Len(t, affectedBy(specdoc.UIVersion{5, 29, 0}, specdoc.UIVersion{3, 2, 6}), 4, "swgui v1.8.5")
	assert.Equal(t, []string{"CVE-2026-49458 (fixed in DOMPurify 3.4.7)", "CVE-2026-49459 (fixed in DOMPurify 3.4.7)",
		"CVE-2026-49978 (fixed in DOMPurify 3.4.7)"}, affectedBy(specdoc.UIVersion{5, 32, 8}, specdoc.UIVersion{3, 4, 6}))
	assert.Equal(t, []string{"CVE-2026-49458 (fixed in Swagger UI 5.32.7)", "CVE-2026-49459 (fixed in Swagger UI 5.32.7)",
		"CVE-2026-49978 (fixed in Swagger UI 5.32.7)"}, affectedBy(specdoc.UIVersion{5, 32, 6}, specdoc.UIVersion{3, 4, 7}))
	assert.Empty(t, affectedBy(specdoc.UIVersion{5, 32, 7}, specdoc.UIVersion{3, 4, 7}))
}

// TestEmbeddedUIHasNoKnownAdvisories reads the Swagger UI and DOMPurify
// versions from the embedded bundle itself and fails when either is older
// than the release that fixes an advisory of uiAdvisories (DOMPurify
// 3.4.7, Swagger UI 5.32.7), so that a downgrade of the Swagger UI module
// cannot slip in; and when the package doc or docs/viewer.md does not name the
// embedded versions and the versions this test checks.
func TestEmbeddedUIHasNoKnownAdvisories(t *testing.T) {
	bundle, gzipped, err := readDistFile(swguistatic.FS, "swagger-ui-bundle.js")
	require.NoError(t, err)
	var r io.Reader = bytes.NewReader(bundle)
	if gzipped {
		zr, err := gzip.NewReader(r)
		require.NoError(t, err)
		r = zr
	}
	uiText, purifyText, err := bundleVersions(r)
	require.NoError(t, err)
	ui, ok := parseUIVersion(uiText)
	require.True(t, ok, "the embedded bundle names no Swagger UI version (found %q)", uiText)
	purify, ok := parseUIVersion(purifyText)
	require.True(t, ok, "the embedded bundle names no DOMPurify version (found %q)", purifyText)
	assert.Empty(t, affectedBy(ui, purify),
		"the embedded Swagger UI %s bundles DOMPurify %s: want DOMPurify 3.4.7 or newer and Swagger UI 5.32.7 or newer, free of the advisories listed", ui, purifyText)
	assert.Equal(t, 5, ui[0], "Swagger UI major version")

	for _, file := range []string{"doc.go", "docs/viewer.md"} {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		// Comment and Markdown line breaks are spaces here.
		flat := strings.Join(strings.Fields(strings.ReplaceAll(string(text), "//", " ")), " ")
		for _, want := range []string{"Swagger UI " + uiText, "DOMPurify " + purifyText, `PACKAGE_VERSION "` + uiText + `"`,
			"DOMPurify 3.4.7", "Swagger UI 5.32.7"} {
			assert.True(t, strings.Contains(flat, want), "%s does not name %s", file, want)
		}
		for _, a := range uiAdvisories() {
			assert.True(t, strings.Contains(flat, a.id), "%s does not name %s", file, a.id)
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
