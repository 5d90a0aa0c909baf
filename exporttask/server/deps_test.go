package server_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServerImportsNeitherWorkerNorWebhook: the HTTP server takes the
// store's capabilities and times them with taskstore.Instrumented, so it
// does not link the worker or the webhook deliverer that run beside it.
func TestServerImportsNeitherWorkerNorWebhook(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	const pkg = "github.com/openapi-viewer/viewer/exporttask/server"
	out, err := exec.Command(goBin, "list", "-deps", pkg).Output()
	require.NoError(t, err, "go list -deps %s", pkg)
	deps := strings.Fields(string(out))
	for _, p := range []string{
		"github.com/openapi-viewer/viewer/exporttask/worker",
		"github.com/openapi-viewer/viewer/exporttask/webhook",
	} {
		assert.NotContains(t, deps, p, "%s imports %s", pkg, p)
	}
}
