package viewer_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// servedBundle sets up a viewer for cfg and returns its document decoded, and
// the raw JSON and YAML.
func servedBundle(t *testing.T, cfg viewer.Config) (doc map[string]any, jsonDoc, yamlDoc string) {
	t.Helper()
	cfg.UIPath, cfg.RawPath = "/d", "/s"
	h, err := viewer.NewHandler(cfg)
	require.NoError(t, err)
	_, jsonDoc = get(t, h, "/s.json")
	_, yamlDoc = get(t, h, "/s.yaml")
	require.NoError(t, json.Unmarshal([]byte(jsonDoc), &doc))
	assert.Equal(t, decodeYAML(t, []byte(jsonDoc)), decodeYAML(t, []byte(yamlDoc)), "the YAML is the same document")
	return doc, jsonDoc, yamlDoc
}

// digJSON follows keys through decoded JSON.
func digJSON(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		require.True(t, ok, "at %q: not an object", k)
		v, ok = m[k]
		require.True(t, ok, "no %q", k)
	}
	return v
}

// allRefs lists every $ref value of a decoded document.
func allRefs(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if s, ok := c.(string); ok && k == "$ref" {
				out = append(out, s)
			}
			out = append(out, allRefs(c)...)
		}
	case []any:
		for _, c := range x {
			out = append(out, allRefs(c)...)
		}
	}
	return out
}

func TestBundleRealSplitSpec(t *testing.T) {
	const dir = "testdata/wild/redocly-cafe"
	doc, jsonDoc, _ := servedBundle(t, viewer.Config{FilePathOrSpec: dir + "/openapi.yaml"})

	// Every $ref is now inside the document, except those in x- extensions
	// (code samples), which are left as they are.
	for _, r := range allRefs(doc) {
		if strings.HasPrefix(r, "../code_samples/") {
			continue
		}
		require.True(t, strings.HasPrefix(r, "#/components/"), "$ref %q still points outside", r)
		parts := strings.Split(strings.TrimPrefix(r, "#/"), "/")
		digJSON(t, doc, parts...) // and it resolves
	}
	// Path items are copied in place; components are named after their
	// files, and the root's own components come first.
	digJSON(t, doc, "paths", "/menu", "get", "summary")
	digJSON(t, doc, "webhooks", "order-notification", "post")
	for _, name := range []string{"MenuItemList", "Error", "OrderStatus"} {
		digJSON(t, doc, "components", "schemas", name)
	}
	for _, name := range []string{"BadRequest", "NotFound"} {
		digJSON(t, doc, "components", "responses", name)
	}
	digJSON(t, doc, "components", "parameters", "OrderId")
	keys := keyOrder(t, []byte(jsonDoc))
	idx := func(p string) int {
		for i, k := range keys {
			if k == p {
				return i
			}
		}
		t.Fatalf("no key %s", p)
		return -1
	}
	assert.Less(t, idx("/components/securitySchemes"), idx("/components/parameters"), "the author's components first")
	assert.Less(t, idx("/paths//menu"), idx("/paths//orders"), "paths in the author's order")
	// The author's key order inside a referenced file is kept.
	menuGet := -1
	for i, k := range keys {
		if k == "/paths//menu/get" {
			menuGet = i
		}
	}
	require.Positive(t, menuGet)
	assert.Equal(t, []string{"/paths//menu/get/tags", "/paths//menu/get/summary", "/paths//menu/get/description", "/paths//menu/get/operationId"},
		keys[menuGet+1:menuGet+5])
}

func TestBundleCycles(t *testing.T) {
	doc, _, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "testdata/bundle/cycle/openapi.yaml"})
	schemas := digJSON(t, doc, "components", "schemas").(map[string]any)
	assert.Equal(t, "#/components/schemas/node", digJSON(t, doc, "paths", "/nodes", "get", "responses", "200", "content", "application/json", "schema", "$ref"))
	// node.yaml refers to itself, to person.yaml and back to the root file.
	assert.Equal(t, "#/components/schemas/node", digJSON(t, schemas, "node", "properties", "children", "items", "$ref"))
	assert.Equal(t, "#/components/schemas/Person", digJSON(t, schemas, "node", "properties", "owner", "$ref"))
	assert.Equal(t, "#/components/schemas/Local", digJSON(t, schemas, "node", "properties", "local", "$ref"))
	// Person and Pet refer to each other, and Pet back to node.
	assert.Equal(t, "#/components/schemas/Pet", digJSON(t, schemas, "Person", "properties", "pets", "items", "$ref"))
	assert.Equal(t, "#/components/schemas/Person", digJSON(t, schemas, "Pet", "properties", "owner", "$ref"))
	assert.Equal(t, "#/components/schemas/node", digJSON(t, schemas, "Pet", "properties", "tree", "$ref"))
	assert.Len(t, schemas, 4, "Local, node, Person, Pet: each once")

	// A path item that refers back to itself cannot be copied: an error.
	fsys := fstest.MapFS{
		"api.yaml":  {Data: []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    $ref: item.yaml\n")},
		"item.yaml": {Data: []byte("get:\n  responses:\n    '200':\n      description: ok\n      links: {}\n  callbacks:\n    cb:\n      '{$request.body}':\n        $ref: item.yaml\n")},
	}
	err := viewer.New(viewer.Config{FilePathOrSpec: "api.yaml", FS: fsys, UIPath: "/d"}).Setup()
	require.ErrorIs(t, err, viewer.ErrInvalidSpec)
	assert.Contains(t, err.Error(), "item.yaml:9:")
	assert.Contains(t, err.Error(), "refers back to itself")
}

func TestBundleNameClashesAndRemoteRefs(t *testing.T) {
	doc, _, yamlDoc := servedBundle(t, viewer.Config{FilePathOrSpec: "testdata/bundle/clash/openapi.yaml"})
	schemas := digJSON(t, doc, "components", "schemas").(map[string]any)
	// The root's Item keeps its name; a/Item.yaml and b/Item.yaml get the
	// next free names, in the order their $refs come.
	assert.Equal(t, "string", digJSON(t, schemas, "Item", "type"))
	assert.Contains(t, digJSON(t, schemas, "Item_2", "properties"), "a")
	assert.Contains(t, digJSON(t, schemas, "Item_3", "properties"), "b")
	assert.Equal(t, "#/components/schemas/Item_2", digJSON(t, doc, "paths", "/a", "get", "responses", "200", "content", "application/json", "schema", "$ref"))
	// A fragment of a JSON file; its own local $ref comes along.
	assert.Equal(t, "#/components/parameters/Limit", digJSON(t, doc, "paths", "/b", "get", "parameters").([]any)[0].(map[string]any)["$ref"])
	assert.Equal(t, "#/components/schemas/Count", digJSON(t, doc, "components", "parameters", "Limit", "schema", "$ref"))
	// Remote refs are left alone.
	assert.Equal(t, "https://example.com/errors.yaml#/Error", digJSON(t, doc, "paths", "/b", "get", "responses", "500", "$ref"))
	// The same on every run.
	for i := 0; i < 3; i++ {
		_, _, again := servedBundle(t, viewer.Config{FilePathOrSpec: "testdata/bundle/clash/openapi.yaml"})
		assert.Equal(t, yamlDoc, again)
	}
}

func TestBundleSwagger2(t *testing.T) {
	doc, _, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "testdata/bundle/swagger2/swagger.json"})
	get := digJSON(t, doc, "paths", "/pets", "get")
	assert.Equal(t, "#/parameters/Limit", get.(map[string]any)["parameters"].([]any)[0].(map[string]any)["$ref"])
	assert.Equal(t, "#/definitions/Pet", digJSON(t, get, "responses", "200", "schema", "items", "$ref"))
	assert.Equal(t, "#/responses/Error", digJSON(t, get, "responses", "default", "$ref"))
	assert.Equal(t, "integer", digJSON(t, doc, "parameters", "Limit", "type"))
	assert.Equal(t, "object", digJSON(t, doc, "definitions", "Pet", "type"))
	assert.Equal(t, "failure", digJSON(t, doc, "responses", "Error", "description"))
}

func TestBundleFromFS(t *testing.T) {
	fsys := fstest.MapFS{
		"api/openapi.yaml":  {Data: []byte("openapi: 3.0.3\ninfo: {title: FS, version: '1'}\npaths:\n  /p:\n    $ref: ./paths/p.yaml\n")},
		"api/paths/p.yaml":  {Data: []byte("get:\n  responses:\n    '200': {$ref: '../shared.yaml#/ok'}\n")},
		"api/shared.yaml":   {Data: []byte("ok: {description: fine}\n")},
		"elsewhere/x.yaml":  {Data: []byte("nothing: here\n")},
		"api/bytes-root.md": {Data: []byte("unused")},
	}
	doc, _, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "api/openapi.yaml", FS: fsys})
	assert.Equal(t, "fine", digJSON(t, doc, "components", "responses", "ok", "description"))

	// A document given as bytes resolves its refs from the root of FS.
	doc, _, _ = servedBundle(t, viewer.Config{FS: fsys,
		FilePathOrSpec: viewer.Bytes("openapi: 3.0.3\ninfo: {title: B, version: '1'}\npaths:\n  /p:\n    $ref: api/paths/p.yaml\n")})
	assert.Equal(t, "fine", digJSON(t, doc, "components", "responses", "ok", "description"))

	// Without FS it has no directory: an error that says what to do.
	err := viewer.New(viewer.Config{UIPath: "/d",
		FilePathOrSpec: viewer.Bytes("openapi: 3.0.3\ninfo: {title: B, version: '1'}\npaths:\n  /p:\n    $ref: api/paths/p.yaml\n")}).Setup()
	require.ErrorContains(t, err, "FilePathOrSpec:5:")
	assert.ErrorContains(t, err, "set Config.FS")
}

func TestBundleBrokenRefsNameFileAndLine(t *testing.T) {
	const root = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /p:\n    $ref: p.yaml\n"
	cases := []struct{ name, p, want string }{
		{"missing file", "get:\n  responses:\n    '200':\n      $ref: nothere.yaml\n", `p.yaml:4: $ref "nothere.yaml"`},
		{"missing fragment", "get:\n  responses:\n    '200':\n      $ref: 's.yaml#/responses/Nope'\n", `p.yaml:4: $ref "s.yaml#/responses/Nope": s.yaml has no "Nope"`},
		{"bad pointer", "get:\n  responses:\n    '200':\n      $ref: 's.yaml#responses'\n", `p.yaml:4: $ref "s.yaml#responses": s.yaml has no anchor`},
		{"index out of range", "get:\n  parameters:\n    - $ref: 's.yaml#/list/3'\n  responses: {}\n", `p.yaml:3: $ref "s.yaml#/list/3": s.yaml has no item "3"`},
		{"outside FS", "get:\n  responses:\n    '200':\n      $ref: ../../etc/passwd\n", `p.yaml:4: $ref "../../etc/passwd": ../../etc/passwd is outside Config.FS`},
		{"bad target file", "get:\n  responses:\n    '200':\n      $ref: bad.yaml\n", `bad.yaml:2: duplicate key "a"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"root.yaml": {Data: []byte(root)},
				"p.yaml":    {Data: []byte(c.p)},
				"s.yaml":    {Data: []byte("responses: {Ok: {description: ok}}\nlist: [{name: a, in: query}]\n")},
				"bad.yaml":  {Data: []byte("a: 1\na: 2\n")},
			}
			err := viewer.New(viewer.Config{FilePathOrSpec: "root.yaml", FS: fsys, UIPath: "/d"}).Setup()
			require.ErrorIs(t, err, viewer.ErrInvalidSpec)
			assert.Contains(t, err.Error(), c.want)
		})
	}

	// On the OS file system, the path in the error is the one Setup read.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "root.yaml"), []byte(root), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.yaml"), []byte("get:\n  responses:\n    '200':\n      $ref: gone.yaml\n"), 0o600))
	err := viewer.New(viewer.Config{FilePathOrSpec: filepath.Join(dir, "root.yaml"), UIPath: "/d"}).Setup()
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Join(dir, "p.yaml")+":4:")
}

func TestBundleRefBackToTheRootSpelledAnotherWay(t *testing.T) {
	fsys := fstest.MapFS{
		"api/openapi.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /p:\n    $ref: p.yaml\n" +
			"components:\n  schemas:\n    Id: {type: integer, example: {$ref: not-a-ref.yaml}}\n")},
		"api/p.yaml": {Data: []byte("get:\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n" +
			"          schema: {$ref: './openapi.yaml#/components/schemas/Id'}\n          example: {$ref: literal.yaml}\n")},
	}
	doc, _, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "./api//openapi.yaml", FS: fsys})
	media := digJSON(t, doc, "paths", "/p", "get", "responses", "200", "content", "application/json")
	assert.Equal(t, "#/components/schemas/Id", digJSON(t, media, "schema", "$ref"))
	assert.Len(t, digJSON(t, doc, "components", "schemas"), 1, "the root is not copied into itself")
	// A "$ref" inside an example is data, left as written.
	assert.Equal(t, "literal.yaml", digJSON(t, media, "example", "$ref"))
	assert.Equal(t, "not-a-ref.yaml", digJSON(t, doc, "components", "schemas", "Id", "example", "$ref"))
}

func TestBundleJSONRootWithTabs(t *testing.T) {
	fsys := fstest.MapFS{
		"api.json": {Data: []byte("{\n\t\"openapi\": \"3.0.3\",\n\t\"info\": {\"title\": \"Tabs\", \"version\": \"1\"},\n\t\"paths\": {\n\t\t\"/p\": {\"$ref\": \"p.json\"}\n\t},\n\t\"x-big\": 1E5\n}\n")},
		"p.json":   {Data: []byte(`{"get": {"responses": {"200": {"$ref": "gone.json"}}}}`)},
		"ok.json":  {Data: []byte(`{"get": {"responses": {"200": {"description": "ok"}}}}`)},
	}
	err := viewer.New(viewer.Config{FilePathOrSpec: "api.json", FS: fsys, UIPath: "/d"}).Setup()
	require.ErrorContains(t, err, `p.json:1: $ref "gone.json"`)

	fsys["p.json"] = &fstest.MapFile{Data: fsys["ok.json"].Data}
	doc, jsonDoc, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "api.json", FS: fsys})
	assert.Equal(t, "ok", digJSON(t, doc, "paths", "/p", "get", "responses", "200", "description"))
	assert.Contains(t, jsonDoc, `"x-big": 1E5`, "numbers keep their text")
	assert.Equal(t, []string{"/openapi", "/info", "/info/title", "/info/version", "/paths"}, keyOrder(t, []byte(jsonDoc))[:5])
}
