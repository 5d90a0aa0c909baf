package bundle

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHasFileRefs(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"$ref": "#/components/schemas/Pet"}`:           false,
		`{"$ref": "https://example.com/x.yaml"}`:         false,
		`{"description": "use $ref to point elsewhere"}`: false,
		`{"$ref": "./pet.yaml"}`:                         true,
		`{"$ref":"pet.json#/Pet"}`:                       true,
		"a:\n  $ref: paths/menu.yaml\n":                  true,
		"a:\n  $ref: '#/x'\nb:\n  '$ref': ../c.yaml\n":   true,
		"a:\n  $ref: urn:example:pet\n":                  false,
		"description: \"$ref: is a key, #1\"\n":          true, // a false yes: the bundler walks and finds nothing
		`{"x": "$ref", "y": 1}`:                          false,
	} {
		assert.Equal(t, want, HasFileRefs([]byte(doc)), doc)
	}
}
