package viewer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	viewer "github.com/openapi-viewer/viewer"
)

func TestTypedSpecInputs(t *testing.T) {
	const doc = "openapi: 3.0.3\ninfo: {title: Typed, version: '1'}\npaths: {}\n"
	dir := t.TempDir()
	// A file whose name a plain string could not be given as.
	odd := filepath.Join(dir, "{odd}.yaml")
	require.NoError(t, os.WriteFile(odd, []byte(doc), 0o600))

	for name, v := range map[string]any{
		"File":   viewer.File(odd),
		"Bytes":  viewer.Bytes(doc),
		"[]byte": []byte(doc),
		"string": filepath.Join(dir, "{odd}.yaml"), // a path that merely contains "{" is still a path
	} {
		t.Run(name, func(t *testing.T) {
			h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: v, UIPath: "/d", RawPath: "/spec"})
			require.NoError(t, err)
			_, body := get(t, h, "/spec.json")
			assert.Contains(t, body, `"title": "Typed"`)
		})
	}
}

func TestADocumentInAStringIsNotTakenForAPath(t *testing.T) {
	for _, s := range []string{
		"openapi: 3.0.3\ninfo: {title: T, version: '1'}\n",
		"openapi: 3.0.3",
		`{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}}`,
		"swagger: '2.0'",
	} {
		err := viewer.New(viewer.Config{FilePathOrSpec: s, UIPath: "/d"}).Setup()
		require.ErrorIs(t, err, viewer.ErrInvalidConfig, s)
		assert.Contains(t, err.Error(), "viewer.Bytes(doc)", s)
		assert.Contains(t, err.Error(), "FilePathOrSpec", s)
	}
	err := viewer.New(viewer.Config{Specs: []viewer.SpecSource{{Name: "A", FilePathOrSpec: "openapi: 3.0.3\n"}}, UIPath: "/d"}).Setup()
	require.ErrorContains(t, err, "Specs[0].FilePathOrSpec is a string that holds a document")
}
