package specdoc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/openapi-viewer/viewer/internal/transcode"
)

func TestJSONDuplicateKeysAreRefusedWithTheLine(t *testing.T) {
	doc := "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"T\", \"version\": \"1\"},\n  \"paths\": {\n    \"/a\": {},\n    \"/\\u0061\": {}\n  }\n}\n"
	_, err := Load([]byte(doc), nil, "FilePathOrSpec", UIVersion{})
	require.Error(t, err)
	var se *transcode.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 6, se.Line, "the second /a is on line 6")
	assert.Contains(t, err.Error(), `duplicate key "/a" (first at line 5)`)

	// The same key in different objects, and in arrays, is fine.
	ok := `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "x": [{"title": 1}, {"title": 2}], "y": {"title": "k"}}`
	_, err = Load([]byte(ok), nil, "FilePathOrSpec", UIVersion{})
	require.NoError(t, err)
}

func TestOpenAPIVersionIsOneSwaggerUIRenders(t *testing.T) {
	for _, v := range []string{"3.0.0", "3.0.3", "3.0.2-rc1", "3.1.0", "3.1.1", "3.1.10"} {
		_, err := Load([]byte("openapi: "+v+"\ninfo: {title: T, version: '1'}\n"), nil, "FilePathOrSpec", UIVersion{})
		assert.NoError(t, err, v)
	}
	for _, v := range []string{"3.2.0", "'3.banana'", "3.0.4", "'3.1'", "3.1.01", "3.0.1-rc3", "3.0.1-rc1-rc0", "4.0.0", "'3.'"} {
		_, err := Load([]byte("openapi: "+v+"\ninfo: {title: T, version: '1'}\n"), nil, "FilePathOrSpec", UIVersion{})
		if assert.Error(t, err, v) {
			assert.Contains(t, err.Error(), "FilePathOrSpec:1:", v)
			assert.Contains(t, err.Error(), "Swagger UI renders", v)
		}
	}
	_, err := Load([]byte(`{"swagger": "2.1", "info": {"title": "T", "version": "1"}}`), nil, "FilePathOrSpec", UIVersion{})
	require.ErrorContains(t, err, `swagger is "2.1": want "2.0"`)
}

func TestMergeKeysAreSeenByTheChecksAndKeepOrder(t *testing.T) {
	doc := "openapi: 3.0.3\nbase: &b {title: From merge, version: '1', description: d}\ninfo:\n  x-first: 1\n  <<: *b\n  description: own\n  x-last: 2\n"
	s, err := Load([]byte(doc), nil, "FilePathOrSpec", UIVersion{})
	require.NoError(t, err, "title and version come from the merge")
	assert.Equal(t, "From merge", s.Title())
	var n yaml.Node
	require.NoError(t, yaml.Unmarshal(s.JSON, &n))
	info := n.Content[0].Content[5]
	var keys []string
	for i := 0; i < len(info.Content); i += 2 {
		keys = append(keys, info.Content[i].Value+"="+info.Content[i+1].Value)
	}
	assert.Equal(t, []string{"x-first=1", "title=From merge", "version=1", "description=own", "x-last=2"}, keys,
		"merged keys take the merge key's place; a key the mapping sets keeps its own place and value")

	_, err = Load([]byte("openapi: 3.0.3\nb: &b {version: '1'}\ninfo: {<<: *b}\n"), nil, "FilePathOrSpec", UIVersion{})
	require.ErrorContains(t, err, "info.title", "a merge without a title is still refused")
}
