package main

import (
	"net/http/httptest"
	"testing"

	ghodss "github.com/ghodss/yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
	"github.com/openapi-viewer/viewer/internal/keyorder"
)

// TestNotLikeGhodssYAML shows, on one small document, the two defects that
// rule out github.com/ghodss/yaml for spec documents (it is a dependency of
// this bench module only, so it never enters the viewer's go.mod): it sorts
// keys alphabetically, and it applies YAML 1.1, which turns the key y into
// "true". The viewer keeps both.
func TestNotLikeGhodssYAML(t *testing.T) {
	src := []byte(`openapi: 3.0.3
info:
  title: Coordinates
  version: 1.0.0
paths:
  /zebra:
    get:
      responses:
        '200':
          description: ok
  /apple:
    get:
      responses:
        '200':
          description: ok
components:
  schemas:
    Point:
      type: object
      properties:
        x: {type: number}
        y: {type: number}
`)
	theirs, err := ghodss.YAMLToJSON(src)
	require.NoError(t, err)
	assert.Equal(t, "/components", keyOrder(t, theirs)[0], "ghodss/yaml sorts keys: components comes first")
	assert.Contains(t, string(theirs), `"true":{"type":"number"}`, "ghodss/yaml reads the key y as the boolean true")

	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: src, UIPath: "/docs", RawPath: "/spec"})
	require.NoError(t, err)
	for _, p := range []string{"/spec.json", "/spec.yaml"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		ours := rec.Body.String()
		assert.Equal(t, keyOrder(t, src), keyOrder(t, []byte(ours)), "%s keeps the author's order", p)
		assert.Contains(t, keyOrder(t, []byte(ours)), "/components/schemas/Point/properties/y", "%s keeps the key y", p)
	}
}

// keyOrder lists the mapping keys of doc as paths, in document order.
func keyOrder(t *testing.T, doc []byte) []string {
	t.Helper()
	paths, err := keyorder.Paths(doc)
	require.NoError(t, err)
	return paths
}
