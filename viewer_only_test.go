package viewer_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestViewerOnlyProgramIsSmall builds the module list of a program that
// imports only the viewer (a module of its own in a temporary directory,
// requiring this one): the export service, its own module under
// exporttask/, brings none of its dependencies, so the build list stays at
// the viewer's few modules and the program's go.sum short. And no package
// of the viewer, tests included, imports the export service.
func TestViewerOnlyProgramIsSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy")
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("go.mod", "module example.com/vieweronly\n\ngo 1.24.0\n\n"+
		"require github.com/openapi-viewer/viewer v0.0.0\n\n"+
		"replace github.com/openapi-viewer/viewer => "+root+"\n")
	write("main.go", `package main

import (
	"log"
	"net/http"

	viewer "github.com/openapi-viewer/viewer"
)

func main() {
	h, err := viewer.NewHandler(viewer.Config{FilePathOrSpec: "openapi.yaml"})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
`)
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// Outside the repository's go.work, as a user's module is.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		out, err := cmd.Output()
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		require.NoError(t, err, "go %s: %s", strings.Join(args, " "), stderr)
		return string(out)
	}
	run(dir, "mod", "tidy")
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(sum), "\n"), 14, "the program's go.sum:\n%s", sum)
	modules := strings.Fields(run(dir, "list", "-m", "-f", "{{.Path}}", "all"))
	assert.LessOrEqual(t, len(modules), 15, "go list -m all of a viewer-only program: %v", modules)
	for _, m := range modules {
		assert.False(t, strings.HasPrefix(m, "github.com/openapi-viewer/viewer/"), "the build list holds %s", m)
	}

	// Every package of the viewer's module, with its tests' imports.
	deps := strings.Fields(run(root, "list", "-deps", "-test", "./..."))
	require.Contains(t, deps, "github.com/openapi-viewer/viewer")
	for _, d := range deps {
		assert.False(t, strings.HasPrefix(d, "github.com/openapi-viewer/viewer/exporttask"), "the viewer's module imports %s", d)
	}
}
