package viewer_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/openapi-viewer/viewer/internal/keyorder"
)

// get sends a GET to h and returns the response with its body read.
func get(t *testing.T, h http.Handler, target string, header ...string) (*http.Response, string) {
	t.Helper()
	return do(t, h, http.MethodGet, target, header...)
}

func do(t *testing.T, h http.Handler, method, target string, header ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(body)
}

// keyOrder lists every mapping key of a YAML or JSON document as a path,
// in document order, so two documents can be compared for key order.
func keyOrder(t *testing.T, doc []byte) []string {
	t.Helper()
	paths, err := keyorder.Paths(doc)
	require.NoError(t, err)
	return paths
}

// decodeYAML decodes a YAML (or JSON) document into generic values.
func decodeYAML(t *testing.T, doc []byte) any {
	t.Helper()
	var v any
	require.NoError(t, yaml.Unmarshal(doc, &v))
	return v
}

// pageRefs lists the URLs a page's <script src> and <link href> refer to.
func pageRefs(page string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}

// resolve resolves a reference against a base URL path.
func resolve(t *testing.T, base, ref string) string {
	t.Helper()
	b, err := url.Parse(base)
	require.NoError(t, err)
	r, err := url.Parse(ref)
	require.NoError(t, err)
	return b.ResolveReference(r).String()
}
