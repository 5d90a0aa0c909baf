package viewer_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	viewer "github.com/openapi-viewer/viewer"
	"github.com/openapi-viewer/viewer/internal/npmfixture"
)

// TestBundleMultiFileSwagger sets up the npm package multi-file-swagger as
// published (info, paths and definitions are each a $ref to another file)
// and compares the served document with swagger-cli bundle's.
//
// swagger-cli cannot bundle the package as published: paths/bar.yaml says
// $ref: '#/definitions/User', meaning the root document's definitions (the
// package's own resolver, json-refs, leaves it as it is, and the package's
// test/expected.json keeps it), while swagger-cli looks for definitions in
// bar.yaml and fails. So swagger-cli is given a copy in which that one $ref
// names the root file ('../index.yaml#/definitions/User'), which is what
// the viewer makes of it.
//
// swagger-cli copies an object referred to once in place of its $ref; the
// viewer makes it an entry of definitions, named after its key
// (SameFileReference, from paths/nested.yaml), so the comparison first puts
// such generated entries back in place of their $refs.
func TestBundleMultiFileSwagger(t *testing.T) {
	pkg := npmfixture.MultiFileSwagger(t)
	doc, jsonDoc, _ := servedBundle(t, viewer.Config{FilePathOrSpec: filepath.Join(pkg.Dir, "index.yaml")})
	assert.Equal(t, "Simple API", digJSON(t, doc, "info", "title"))
	assert.Equal(t, "#/definitions/User", digJSON(t, doc, "paths", "/bar", "get", "responses", "200", "schema", "$ref"))
	assert.Equal(t, []string{"/foo", "/bar", "/nested"}, childKeys(t, []byte(jsonDoc), "paths"))
	assert.Equal(t, []string{"User", "SameFileReference"}, childKeys(t, []byte(jsonDoc), "definitions"))

	// swagger-cli on the package as published: the error the copy avoids.
	out, err := exec.Command(pkg.SwaggerCLI, "bundle", "-t", "json", filepath.Join(pkg.Dir, "index.yaml")).CombinedOutput()
	require.Error(t, err, "swagger-cli now bundles the package as published: compare with it directly")
	require.Contains(t, string(out), `Token "definitions" does not exist`)

	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(pkg.Dir)))
	bar := filepath.Join(dir, "paths", "bar.yaml")
	data, err := os.ReadFile(bar)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(data), `'#/definitions/User'`), "paths/bar.yaml changed")
	require.NoError(t, os.WriteFile(bar, []byte(strings.Replace(string(data), `'#/definitions/User'`, `'../index.yaml#/definitions/User'`, 1)), 0o600))
	cmd := exec.Command(pkg.SwaggerCLI, "bundle", "-t", "json", filepath.Join(dir, "index.yaml"))
	cmd.Stderr = os.Stderr
	want, err := cmd.Output()
	require.NoError(t, err, "swagger-cli bundle")

	got := inlineGeneratedDefinitions(t, []byte(jsonDoc), []byte(want))
	assert.Equal(t, decodeYAML(t, want), decodeYAML(t, got), "the bundled documents")
	assert.Equal(t, keyOrder(t, want), keyOrder(t, got), "their key order")
	// The package's own expected output is swagger-cli's too.
	expected, err := os.ReadFile(filepath.Join(pkg.Dir, "test", "expected.json"))
	require.NoError(t, err)
	assert.Equal(t, decodeYAML(t, expected), decodeYAML(t, got))
}

// childKeys lists the keys of the mapping at key of a document's top level,
// in order.
func childKeys(t *testing.T, doc []byte, key string) []string {
	t.Helper()
	var root yaml.Node
	require.NoError(t, yaml.Unmarshal(doc, &root))
	m := mappingOf(root.Content[0], key)
	require.NotNil(t, m, "no %s", key)
	var out []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, m.Content[i].Value)
	}
	return out
}

// inlineGeneratedDefinitions returns doc with each definitions entry that
// want's definitions lack (one the viewer generated) copied in place of the
// $refs to it and removed.
func inlineGeneratedDefinitions(t *testing.T, doc, want []byte) []byte {
	t.Helper()
	var root, wantRoot yaml.Node
	require.NoError(t, yaml.Unmarshal(doc, &root))
	require.NoError(t, yaml.Unmarshal(want, &wantRoot))
	defs := mappingOf(root.Content[0], "definitions")
	wantDefs := mappingOf(wantRoot.Content[0], "definitions")
	require.NotNil(t, defs)
	generated := map[string]*yaml.Node{}
	var kept []*yaml.Node
	for i := 0; i+1 < len(defs.Content); i += 2 {
		if wantDefs != nil && mappingOf(wantDefs, defs.Content[i].Value) != nil {
			kept = append(kept, defs.Content[i], defs.Content[i+1])
		} else {
			generated["#/definitions/"+defs.Content[i].Value] = defs.Content[i+1]
		}
	}
	defs.Content = kept
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "$ref" {
			if g := generated[n.Content[1].Value]; g != nil {
				*n = *g
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	out, err := yaml.Marshal(&root)
	require.NoError(t, err)
	return out
}

// mappingOf returns the value of key in mapping m, or nil.
func mappingOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
