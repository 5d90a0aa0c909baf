package server_test

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/client"
)

// TestKilledDuringRasterExportsLeavesNoScratch kills the example server
// with SIGKILL while RASTER exports build their GeoPackages, starts it
// again, and once every task has completed finds no scratch file left
// anywhere: not in the scratch directory, not in the process's TMPDIR.
func TestKilledDuringRasterExportsLeavesNoScratch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server with real exports")
	}
	dir := t.TempDir()
	bin := buildExampleServer(t, dir)
	scratch, tmp := filepath.Join(dir, "scratch"), filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	const key = "scratch-test-key-0123456789"
	args := []string{"-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "tasks.db"), "-keys", key + "=acme",
		"-instance", "kill-test", "-scratch", scratch, "-catalog", filepath.Join(dir, "catalog"),
		"-artifacts", filepath.Join(dir, "files")}
	env := []string{"TMPDIR=" + tmp}

	first := startServerEnv(t, bin, dir, args, env)
	api, err := client.New(first.url, key)
	require.NoError(t, err)
	ctx := t.Context()
	var ids []int64
	for i := range 3 {
		// The whole demo record, each with its own description so that
		// none is a duplicate of another.
		task, err := api.Create(ctx, exporttask.CreateRequest{
			CatalogRecordID: demo.RasterID, Domain: exporttask.DomainRaster, ArtifactCRS: exporttask.CRS4326,
			Description: "kill " + string(rune('a'+i)),
			Webhook: []exporttask.Webhook{{URL: "https://hooks.example.org/exports",
				Events: []exporttask.Event{exporttask.EventCompleted}}},
		})
		require.NoError(t, err)
		ids = append(ids, task.ID)
	}
	// Kill it once a GeoPackage is being built in the scratch directory.
	require.Eventually(t, func() bool { return len(scratchFiles(t, scratch)) > 0 },
		60*time.Second, 20*time.Millisecond, "no export wrote a scratch file")
	require.NoError(t, first.cmd.Process.Signal(syscall.SIGKILL))
	_ = first.cmd.Wait()
	left := scratchFiles(t, scratch)
	require.NotEmpty(t, left, "the crash left the export's scratch files")
	t.Logf("left by the crash: %v", left)

	second := startServerEnv(t, bin, dir, args, env)
	api, err = client.New(second.url, key, client.WithHTTPClient(&http.Client{Timeout: 10 * time.Second}))
	require.NoError(t, err)
	waitCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for _, id := range ids {
		done, err := api.Wait(waitCtx, id, 100*time.Millisecond)
		require.NoError(t, err, "task %d (stderr: %s)", id, second.stderr())
		assert.Equal(t, exporttask.StatusCompleted, done.Status, "task %d: %s", id, done.ErrorReason)
	}
	assert.Empty(t, scratchFiles(t, scratch), "scratch files after the restart's exports")
	assert.Empty(t, scratchFiles(t, tmp), "files in the server's TMPDIR")
}

// scratchFiles lists the regular files under dir (none when it does not
// exist).
func scratchFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, strings.TrimPrefix(p, dir+string(filepath.Separator)))
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
