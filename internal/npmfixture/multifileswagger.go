package npmfixture

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// RequireNodeEnv set to 1 fails a test that needs npm or Node.js, instead
// of skipping it, when they are missing.
const RequireNodeEnv = "VIEWER_TEST_REQUIRE_NODE"

// MultiFileSwaggerEnv names a directory made by
// scripts/fetch-multi-file-swagger.sh, to use instead of running it.
const MultiFileSwaggerEnv = "VIEWER_MULTI_FILE_SWAGGER"

// SplitSpec is a published split spec and the tool to bundle it with.
type SplitSpec struct {
	Dir        string // the unpacked package: Dir/index.yaml is the root document
	SwaggerCLI string // the swagger-cli executable (npm @apidevtools/swagger-cli)
}

// MultiFileSwagger returns the npm package multi-file-swagger 2.3.0,
// unpacked, and swagger-cli 4.0.4, from the directory
// VIEWER_MULTI_FILE_SWAGGER names or else fetched now (into the
// repository's .cache) by scripts/fetch-multi-file-swagger.sh. Without npm,
// or when the script fails, it skips t, or fails it when
// VIEWER_TEST_REQUIRE_NODE=1.
func MultiFileSwagger(t testing.TB) SplitSpec {
	t.Helper()
	dir := os.Getenv(MultiFileSwaggerEnv)
	if dir == "" {
		if _, err := exec.LookPath("npm"); err != nil {
			if os.Getenv(RequireNodeEnv) == "1" {
				t.Fatalf("npm is required with %s=1 (to fetch multi-file-swagger): %v", RequireNodeEnv, err)
			}
			t.Skipf("npm not found (%v): skipping the multi-file-swagger comparison; set %s=1 to fail instead", err, RequireNodeEnv)
		}
		_, self, _, _ := runtime.Caller(0)
		script := filepath.Join(filepath.Dir(self), "..", "..", "scripts", "fetch-multi-file-swagger.sh")
		out, err := exec.Command(script).Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			if os.Getenv(RequireNodeEnv) == "1" {
				t.Fatalf("scripts/fetch-multi-file-swagger.sh: %v %s", err, stderr)
			}
			t.Skipf("scripts/fetch-multi-file-swagger.sh failed (no access to the npm registry?): %v %s; set %s=1 to fail instead", err, stderr, RequireNodeEnv)
		}
		dir = strings.TrimSpace(string(out))
	}
	s := SplitSpec{
		Dir:        filepath.Join(dir, "package"),
		SwaggerCLI: filepath.Join(dir, "swagger-cli", "node_modules", ".bin", "swagger-cli"),
	}
	for _, f := range []string{filepath.Join(s.Dir, "index.yaml"), s.SwaggerCLI} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s: %v (from %s or scripts/fetch-multi-file-swagger.sh)", f, err, MultiFileSwaggerEnv)
		}
	}
	return s
}
