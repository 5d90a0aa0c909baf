package exporttask_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLightDependencies keeps the domain and the client light: a program
// that only calls the API must not link the server, the viewer (and its
// Swagger UI assets) or a database driver; and the HTTP server must not
// link the worker or the webhook deliverer.
func TestLightDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	const mod = "github.com/openapi-viewer/viewer"
	forbidden := []string{
		mod, // the viewer, the root package
		mod + "/exporttask/server",
		mod + "/exporttask/worker",
		mod + "/exporttask/webhook",
		mod + "/exporttask/sqlite",
		mod + "/exporttask/postgres",
		"modernc.org/sqlite",
		"github.com/jackc/pgx/v5",
		"github.com/prometheus/client_golang/prometheus",
	}
	rules := map[string][]string{
		mod + "/exporttask":        forbidden,
		mod + "/exporttask/client": forbidden,
		// The server takes the store's capabilities and times them with
		// taskstore.Instrumented: it does not link the worker or the
		// deliverer that run beside it.
		mod + "/exporttask/server": {mod + "/exporttask/worker", mod + "/exporttask/webhook"},
	}
	for pkg, forbidden := range rules {
		t.Run(pkg, func(t *testing.T) {
			out, err := exec.Command(goBin, "list", "-deps", pkg).Output()
			require.NoError(t, err, "go list -deps %s", pkg)
			deps := strings.Fields(string(out))
			require.Contains(t, deps, pkg, "go list printed the package itself")
			for _, f := range forbidden {
				assert.NotContains(t, deps, f, "%s depends on %s", pkg, f)
			}
		})
	}
}

// TestOnlyTheServerImportsPrometheus: metrics are the server's business;
// no other package of the module imports the Prometheus client.
func TestOnlyTheServerImportsPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/openapi-viewer/viewer/...").Output()
	require.NoError(t, err)
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if strings.Contains(" "+imports+" ", " github.com/prometheus/") ||
			strings.Contains(imports, "github.com/prometheus/client_golang") {
			importers = append(importers, pkg)
		}
	}
	assert.Equal(t, []string{"github.com/openapi-viewer/viewer/exporttask/server"}, importers)
}
