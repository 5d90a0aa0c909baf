package viewer_test

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// largeSpec generates a YAML document of several megabytes whose paths are
// deliberately out of alphabetical order.
func largeSpec(paths int) []byte {
	var b bytes.Buffer
	b.WriteString("openapi: 3.0.3\ninfo:\n  title: Large\n  version: 1.0.0\npaths:\n")
	for i := paths; i > 0; i-- {
		fmt.Fprintf(&b, "  /resource-%05d/{id}:\n", i)
		for _, m := range []string{"get", "put", "delete"} {
			fmt.Fprintf(&b, "    %s:\n      operationId: %s%d\n      summary: %s resource %d\n", m, m, i, m, i)
			fmt.Fprintf(&b, "      description: |\n        %s\n        Second line: with a colon, y, yes and on.\n", strings.Repeat("Lorem ipsum dolor sit amet. ", 8))
			b.WriteString("      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n")
			b.WriteString("      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Thing'}\n")
		}
	}
	b.WriteString("components:\n  schemas:\n    Thing:\n      type: object\n      properties:\n        z: {type: string}\n        a: {type: integer}\n        y: {type: boolean}\n")
	return b.Bytes()
}

func TestLargeGeneratedSpec(t *testing.T) {
	src := largeSpec(2500)
	require.Greater(t, len(src), 3<<20, "the document is several megabytes")
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: src, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, err)
	want := keyOrder(t, src)
	for _, p := range []string{"/openapi.json", "/openapi.yaml"} {
		res, body := get(t, h, p)
		require.Equal(t, 200, res.StatusCode)
		assert.Equal(t, want, keyOrder(t, []byte(body)), "%s keeps the author's order", p)
	}
	_, body := get(t, h, "/openapi.yaml")
	assert.Equal(t, decodeYAML(t, src), decodeYAML(t, []byte(body)))
}

// TestGitHubSpec loads GitHub's REST description (13 MB) when
// VIEWER_GITHUB_SPEC names it: the JSON served is the file itself (it is
// already indented with two spaces, in the same style), byte for byte.
func TestGitHubSpec(t *testing.T) {
	path := githubSpec(t)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: path, UIPath: "/docs", RawPath: "/openapi"})
	require.NoError(t, err)
	res, body := get(t, h, "/openapi.json")
	require.Equal(t, 200, res.StatusCode)
	assert.Equal(t, strings.TrimSpace(string(src)), strings.TrimSpace(body))
	res, body = get(t, h, "/openapi.yaml")
	require.Equal(t, 200, res.StatusCode)
	assert.True(t, strings.HasPrefix(body, "openapi: 3.0.3\ninfo:\n"), body[:100])
	_, page := get(t, h, "/docs/")
	assert.Contains(t, html.UnescapeString(page), "<title>GitHub's official OpenAPI spec + Octokit extension</title>")
}
