package server_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// The generator of TestGeneratedClients, a third party's, and the runtime
// its clients import; fetched through the Go module proxy at test time.
const (
	oapiCodegen = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.5.1"
	oapiRuntime = "github.com/oapi-codegen/runtime v1.1.2"
)

// referenceFiles are the reference service's published descriptions, read
// from the directory VIEWER_REFERENCE_DIR or the workplace's
// shared/reference beside the repository (they are not part of it).
var referenceFiles = map[string]string{
	"v165": "export-management-v1.6.5.openapi3.yaml",
	"v170": "export-management-v1.7.0.openapi3.yaml",
}

// TestGeneratedClients generates a Go client with oapi-codegen from each
// published description (the reference service's v1.6.5 and v1.7.0, and
// this module's openapi.yaml), and runs a program with it
// (testdata/genclients) that creates, reads and, where the description
// has the operation, lists tasks against the example server, whose every
// answer is also checked against openapi.yaml. It needs the Go module
// proxy, and skips without it unless VIEWER_TEST_REQUIRE_PROXY=1; the
// reference descriptions are skipped when they cannot be found.
func TestGeneratedClients(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and builds three clients")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	if _, err := goRun(t, t.TempDir(), gobin, "mod", "download", "-json", "github.com/oapi-codegen/oapi-codegen/v2@v2.5.1"); err != nil {
		if os.Getenv("VIEWER_TEST_REQUIRE_PROXY") == "1" {
			t.Fatalf("the Go module proxy is required: %v", err)
		}
		t.Skipf("the generator cannot be fetched (no Go module proxy?): %v", err)
	}
	s := startDemoServer(t, testkit.NewSpecChecker(t))
	refDir := referenceDir()
	specs := map[string][]byte{"ours": exporttask.OpenAPI()}
	for name, file := range referenceFiles {
		if refDir == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(refDir, file))
		require.NoError(t, err)
		specs[name] = generatorCompatible(b)
	}
	for _, name := range []string{"v165", "v170", "ours"} {
		t.Run(name, func(t *testing.T) {
			spec, ok := specs[name]
			if !ok {
				t.Skip("the reference descriptions were not found; set VIEWER_REFERENCE_DIR")
			}
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "api"), 0o755))
			for _, f := range []string{filepath.Join("common", "main.go"), filepath.Join(name, "run.go")} {
				src, err := os.ReadFile(filepath.Join("testdata", "genclients", f))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), src, 0o644))
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, "spec.yaml"), spec, 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"),
				[]byte("module gentest\n\ngo 1.24\n\nrequire "+oapiRuntime+"\n"), 0o644))
			out, err := goRun(t, dir, gobin, "run", oapiCodegen, "-generate", "types,client", "-package", "api", "-o", "api/api.gen.go", "spec.yaml")
			require.NoError(t, err, "generating: %s", out)
			out, err = goRun(t, dir, gobin, "mod", "tidy")
			require.NoError(t, err, "go mod tidy: %s", out)
			out, err = goRun(t, dir, gobin, "run", ".", s.url, exWriteKey)
			require.NoError(t, err, "the generated client against the server: %s", out)
			t.Logf("%s", out)
		})
	}
}

// goRun runs the go command in dir, outside this module and any
// workspace, and returns its combined output.
func goRun(t *testing.T, dir, gobin string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out, errors.New(strings.TrimSpace(string(out)))
	}
	return out, err
}

// referenceDir returns the directory of the reference descriptions, or ""
// when there is none.
func referenceDir() string {
	if d := os.Getenv("VIEWER_REFERENCE_DIR"); d != "" {
		return d
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		return ""
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		d := filepath.Join(dir, "shared", "reference")
		if _, err := os.Stat(filepath.Join(d, referenceFiles["v165"])); err == nil {
			return d
		}
	}
	return ""
}

// numberFormatRE matches "type: number" with an integer format, which the
// reference descriptions use and oapi-codegen refuses ("invalid number
// format: int64").
var numberFormatRE = regexp.MustCompile(`(type: number\n\s+format: )int(32|64)`)

// generatorCompatible returns a reference description with its integer
// formats of numbers written as double: the Go field is a float64 instead
// of an error, and what goes over the wire does not change.
func generatorCompatible(spec []byte) []byte {
	return numberFormatRE.ReplaceAll(spec, []byte("${1}double"))
}
