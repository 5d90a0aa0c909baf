// Package nodetest finds node and the npm packages that this module's tests
// run as independent readers of what the exporters write (stac-js for STAC
// metadata, gltf-validator and loaders.gl for 3D Tiles).
package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Setup says where a test's npm packages are and what to do when they are
// missing.
type Setup struct {
	// RequireEnv is the environment variable that, set to 1, fails the test
	// instead of skipping it when node or a package is missing.
	RequireEnv string
	// ModulesEnv is the environment variable that may name the
	// node_modules directory to use instead of Dir's.
	ModulesEnv string
	// Dir holds the package.json and package-lock.json; its node_modules
	// is filled by `npm ci --prefix` with the path Prefix.
	Dir, Prefix string
	// Packages are the npm packages the test needs.
	Packages []string
}

// Require returns node's path and the absolute path of the node_modules
// directory holding s.Packages. When node or a package is missing it skips
// t, or fails it when s.RequireEnv is "1".
func (s Setup) Require(t testing.TB) (node, modules string) {
	t.Helper()
	missing := func(why string) {
		if os.Getenv(s.RequireEnv) == "1" {
			t.Fatalf("%s and %s=1", why, s.RequireEnv)
		}
		t.Skipf("%s (set %s=1 to fail instead)", why, s.RequireEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not found")
	}
	modules = os.Getenv(s.ModulesEnv)
	if modules == "" {
		modules = filepath.Join(s.Dir, "node_modules")
	}
	if modules, err = filepath.Abs(modules); err != nil {
		t.Fatal(err)
	}
	for _, pkg := range s.Packages {
		if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
			missing(pkg + " is not in " + modules + " (npm ci --prefix " + s.Prefix + ")")
		}
	}
	return node, modules
}
