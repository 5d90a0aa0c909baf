package viewer_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

// A spec split per path item, each schema in a file of its own that the
// root's definitions (or components) name: one model per schema file, under
// the name the author gave it, however many $refs lead to it. A different
// file whose name clashes gets the next free suffix.
func TestBundlePerPathItemLayoutOneModelPerFile(t *testing.T) {
	user := "type: object\nproperties:\n  name: {type: string}\n  friends:\n    type: array\n    items: {$ref: ./User.yaml}\n"
	for _, c := range []struct {
		name, root, ref, section string
	}{
		{"swagger 2.0", "swagger: '2.0'\ninfo: {$ref: ./info.yaml}\npaths:\n  /users: {$ref: ./paths/users.yaml}\n  /users/{id}: {$ref: ./paths/user.yaml}\n" +
			"definitions:\n  User: {$ref: ./definitions/User.yaml}\n  Error: {$ref: ./definitions/Error.yaml}\n",
			"#/definitions/", "definitions"},
		{"openapi 3.0", "openapi: 3.0.3\ninfo: {$ref: ./info.yaml}\npaths:\n  /users: {$ref: ./paths/users.yaml}\n  /users/{id}: {$ref: ./paths/user.yaml}\n" +
			"components:\n  schemas:\n    User: {$ref: ./definitions/User.yaml}\n    Error: {$ref: ./definitions/Error.yaml}\n",
			"#/components/schemas/", "components/schemas"},
	} {
		t.Run(c.name, func(t *testing.T) {
			schema := func(ref string) string {
				if c.section == "definitions" {
					return "schema: {$ref: '" + ref + "'}"
				}
				return "content: {application/json: {schema: {$ref: '" + ref + "'}}}"
			}
			fsys := fstest.MapFS{
				"index.yaml": {Data: []byte(c.root)},
				"info.yaml":  {Data: []byte("title: Users\nversion: '1'\n")},
				"paths/users.yaml": {Data: []byte("get:\n  responses:\n    '200':\n      description: all\n      " + schema("../definitions/User.yaml") + "\n" +
					"    default:\n      description: failed\n      " + schema("../definitions/Error.yaml") + "\n")},
				"paths/user.yaml": {Data: []byte("get:\n  responses:\n    '200':\n      description: one\n      " + schema("../definitions/../definitions/User.yaml") + "\n" +
					"    '410':\n      description: an older one\n      " + schema("../legacy/User.yaml") + "\n")},
				"definitions/User.yaml":  {Data: []byte(user)},
				"definitions/Error.yaml": {Data: []byte("type: object\nproperties:\n  message: {type: string}\n")},
				"legacy/User.yaml":       {Data: []byte("type: object\nproperties:\n  login: {type: string}\n")},
			}
			doc, jsonDoc, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "index.yaml", FS: fsys})
			keys := append([]string{}, splitSection(c.section)...)
			models := digJSON(t, doc, keys...).(map[string]any)
			assert.Len(t, models, 3, "User, Error and the legacy User: %v", models)
			assert.Equal(t, "object", digJSON(t, models, "User", "type"))
			assert.Contains(t, digJSON(t, models, "User", "properties"), "friends")
			assert.Contains(t, digJSON(t, models, "User_2", "properties"), "login", "the clash gets the next suffix")
			assert.Equal(t, c.ref+"User", digJSON(t, models, "User", "properties", "friends", "items", "$ref"))
			refs := allRefs(doc)
			assert.ElementsMatch(t, []string{c.ref + "User", c.ref + "User", c.ref + "User", c.ref + "Error", c.ref + "User_2"}, refs, "two operations and friends")
			if c.section == "definitions" {
				assert.Equal(t, []string{"User", "Error", "User_2"}, childKeys(t, []byte(jsonDoc), "definitions"))
			}
			assert.Equal(t, "Users", digJSON(t, doc, "info", "title"))
		})
	}
}

func splitSection(s string) []string {
	if s == "definitions" {
		return []string{s}
	}
	return []string{"components", "schemas"}
}

// Whole sections, maps and lists given as $refs, in OpenAPI 3: each is
// copied in place, and an entry of a section read from a file is what a
// $ref to its place in that file means.
func TestBundleWholeSections(t *testing.T) {
	fsys := fstest.MapFS{
		"api/openapi.yaml": {Data: []byte("openapi: 3.1.0\ninfo:\n  title: Sections\n  version: '1'\n  description: {$ref: ./intro.md}\n" +
			"tags: {$ref: ./tags.yaml}\nservers: {$ref: ./servers.yaml}\npaths: {$ref: ./paths/index.yaml}\n" +
			"components:\n  schemas: {$ref: ./schemas/index.yaml}\n  parameters: {$ref: './common.yaml#/parameters'}\n")},
		"api/intro.md":                    {Data: []byte("# Intro\n\nText *here*.\n")},
		"api/tags.yaml":                   {Data: []byte("- name: pets\n- {$ref: ./more-tags.yaml#/0}\n")},
		"api/more-tags.yaml":              {Data: []byte("- name: owners\n  description: people\n")},
		"api/servers.yaml":                {Data: []byte("- url: https://example.com\n")},
		"api/paths/index.yaml":            {Data: []byte("/pets: {$ref: ./pets.yaml}\n")},
		"api/paths/pets.yaml":             {Data: []byte("get:\n  parameters: {$ref: ../common.yaml#/list}\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: {$ref: ../schemas/Pet.yaml}\n    '201':\n      description: the same\n      content:\n        application/json:\n          schema: {$ref: '../schemas/index.yaml#/Pet'}\n          example: {$ref: not-resolved.yaml}\n")},
		"api/schemas/index.yaml":          {Data: []byte("Pet: {$ref: ./Pet.yaml}\nId: {type: integer}\n")},
		"api/schemas/Pet.yaml":            {Data: []byte("type: object\nproperties: {$ref: ./pet-properties.yaml}\n")},
		"api/schemas/pet-properties.yaml": {Data: []byte("id: {$ref: './index.yaml#/Id'}\nname: {type: string}\n")},
		"api/common.yaml":                 {Data: []byte("parameters:\n  Limit: {name: limit, in: query, schema: {type: integer}}\nlist:\n  - {$ref: '#/parameters/Limit'}\n")},
	}
	doc, _, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "api/openapi.yaml", FS: fsys})
	assert.Equal(t, "# Intro\n\nText *here*.\n", digJSON(t, doc, "info", "description"))
	assert.Equal(t, []any{map[string]any{"name": "pets"}, map[string]any{"name": "owners", "description": "people"}}, digJSON(t, doc, "tags"))
	assert.Equal(t, []any{map[string]any{"url": "https://example.com"}}, digJSON(t, doc, "servers"))
	get := digJSON(t, doc, "paths", "/pets", "get")
	assert.Equal(t, []any{map[string]any{"$ref": "#/components/parameters/Limit"}}, digJSON(t, get, "parameters"))
	for _, code := range []string{"200", "201"} {
		assert.Equal(t, "#/components/schemas/Pet", digJSON(t, get, "responses", code, "content", "application/json", "schema", "$ref"))
	}
	assert.Equal(t, "not-resolved.yaml", digJSON(t, get, "responses", "201", "content", "application/json", "example", "$ref"), "examples are data")
	schemas := digJSON(t, doc, "components", "schemas").(map[string]any)
	assert.Len(t, schemas, 2, "Pet and Id, once each: %v", schemas)
	assert.Equal(t, "#/components/schemas/Id", digJSON(t, schemas, "Pet", "properties", "id", "$ref"), "a map of schemas given as a $ref")
	assert.Equal(t, "string", digJSON(t, schemas, "Pet", "properties", "name", "type"))
	assert.Len(t, digJSON(t, doc, "components", "parameters"), 1)
}

// A $ref whose result is not valid OpenAPI: the error names the $ref, its
// file and line, and the file the bad part was read from.
func TestBundleSectionErrorsNameTheRef(t *testing.T) {
	cases := []struct{ name, root, info, want string }{
		{"info without a title", "swagger: '2.0'\ninfo:\n  $ref: ./info/index.yaml\npaths: {}\n", "version: 0.0.0\n",
			`index.yaml:3: $ref "./info/index.yaml" (info/index.yaml): info.title must be a non-empty string`},
		{"info with an empty title", "swagger: '2.0'\ninfo:\n  $ref: ./info/index.yaml\npaths: {}\n", "version: 0.0.0\ntitle: ''\n",
			`index.yaml:3: $ref "./info/index.yaml": info/index.yaml:2: info.title must be a non-empty string`},
		{"info a list", "swagger: '2.0'\ninfo: {$ref: ./info/index.yaml}\npaths: {}\n", "- a\n",
			`index.yaml:2: $ref "./info/index.yaml" (info/index.yaml): info must be a mapping with title and version`},
		{"paths a list", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {$ref: ./info/index.yaml}\n", "- a\n",
			`index.yaml:3: $ref "./info/index.yaml" must point to a mapping (a map of pathItem objects), not a list`},
		{"list with keys beside", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\ntags: {$ref: ./info/index.yaml, x: 1}\n", "- a\n",
			`index.yaml:4: $ref "./info/index.yaml" points to a list, which the keys beside the $ref cannot be added to`},
		{"root's name nowhere", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths:\n  /a: {$ref: ./info/index.yaml}\n",
			"get:\n  responses:\n    '200':\n      description: ok\n      schema: {$ref: '#/definitions/Nope'}\n",
			`info/index.yaml:5: $ref "#/definitions/Nope": info/index.yaml has no "definitions" at #/definitions/Nope, and the bundled document has no "definitions"`},
		{"info is a $ref to itself", "swagger: '2.0'\ninfo: {$ref: ./info/index.yaml}\npaths: {}\n", "$ref: ./index.yaml\n",
			`info/index.yaml:1: $ref "./index.yaml" refers back to itself`},
		{"section refers to itself", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {$ref: ./info/index.yaml}\n", "/a: {$ref: ./index.yaml}\n",
			`info/index.yaml:1: $ref "./index.yaml" refers back to itself`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{"index.yaml": {Data: []byte(c.root)}, "info/index.yaml": {Data: []byte(c.info)}}
			err := viewer.New(viewer.Config{FilePathOrSpec: "index.yaml", FS: fsys, UIPath: "/d"}).Setup()
			require.ErrorIs(t, err, viewer.ErrInvalidSpec)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// A root document that is only a $ref to the real one: the real one's
// "#/..." $refs are the root's own, not copies.
func TestBundleRootIsARef(t *testing.T) {
	fsys := fstest.MapFS{
		"index.yaml":    {Data: []byte("$ref: ./src/api.yaml\n")},
		"src/api.yaml":  {Data: []byte("openapi: 3.0.3\ninfo: {$ref: ./info.yaml}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Ok'}\ncomponents:\n  responses:\n    Ok: {description: fine, content: {application/json: {schema: {$ref: '../index.yaml#/components/schemas/S'}}}}\n  schemas:\n    S: {type: string}\n")},
		"src/info.yaml": {Data: []byte("title: Indirect\nversion: '2'\n")},
	}
	doc, _, _ := servedBundle(t, viewer.Config{FilePathOrSpec: "index.yaml", FS: fsys})
	assert.Equal(t, "Indirect", digJSON(t, doc, "info", "title"))
	assert.Equal(t, "#/components/responses/Ok", digJSON(t, doc, "paths", "/a", "get", "responses", "200", "$ref"))
	assert.Len(t, digJSON(t, doc, "components", "responses"), 1)
	assert.Len(t, digJSON(t, doc, "components", "schemas"), 1)
	assert.Equal(t, "#/components/schemas/S", digJSON(t, doc, "components", "responses", "Ok", "content", "application/json", "schema", "$ref"))
}

// A small root whose paths are a $ref to a large file: the work allowed
// grows with the files read, not with the root alone.
func TestBundleLargeSectionBehindASmallRoot(t *testing.T) {
	var paths strings.Builder
	for i := 0; i < 6000; i++ {
		fmt.Fprintf(&paths, "/p%d:\n  get:\n    parameters:\n", i)
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&paths, "      - {name: q%d, in: query, schema: {type: string}}\n", j)
		}
		fmt.Fprintf(&paths, "    responses: {'200': {description: ok}}\n")
	}
	fsys := fstest.MapFS{
		"api.yaml":   {Data: []byte("openapi: 3.0.3\ninfo: {title: Big, version: '1'}\npaths: {$ref: paths.yaml}\n")},
		"paths.yaml": {Data: []byte(paths.String())},
	}
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "api.yaml", FS: fsys, UIPath: "/d", RawPath: "/s"})
	require.NoError(t, err)
	_, body := get(t, h, "/s.json")
	var doc struct{ Paths map[string]json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(body), &doc))
	assert.Len(t, doc.Paths, 6000)
}
