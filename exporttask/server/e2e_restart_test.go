package server_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// TestServerKilledMidTask builds examples/server, kills it with SIGKILL
// while tasks run, starts it again on the same SQLite file, and sees every
// task complete and its webhook arrive: the queue and the outbox survive a
// crash. The restarted process takes the tasks up once the dead worker's
// lease (30s) ends, so the test takes about 40s.
func TestServerKilledMidTask(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server for about 40s")
	}
	dir := t.TempDir()
	bin := buildExampleServer(t, dir)
	db := filepath.Join(dir, "tasks.db")
	const key, secret = "restart-test-key", "restart-test-secret"
	rc := newHookReceiver()
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	args := []string{"-addr", "127.0.0.1:0", "-db", db, "-keys", key + "=acme:read+write",
		"-task-duration", "6s", "-webhook-secret", secret, "-webhook-allow", "127.0.0.0/8",
		"-exporter", "simulate", "-catalog", filepath.Join(dir, "catalog"), "-artifacts", filepath.Join(dir, "files")}

	first := startServer(t, bin, dir, args)
	spec := testkit.NewSpecChecker(t)
	hc := &http.Client{Transport: spec.Transport(http.DefaultTransport), Timeout: 10 * time.Second}
	api, err := client.New(first.url, key, client.WithHTTPClient(hc))
	require.NoError(t, err)
	ctx := t.Context()
	var ids []int64
	for i := range 3 {
		task, err := api.Create(ctx, testkit.SampleRequestTo(100+i, hook.URL+"/restart"))
		require.NoError(t, err)
		ids = append(ids, task.ID)
	}
	// Kill it once a task has reported progress.
	require.Eventually(t, func() bool {
		task, err := api.Get(ctx, ids[0])
		return err == nil && task.Status == exporttask.StatusInProgress && task.Progress > 0
	}, 20*time.Second, 50*time.Millisecond, "the first task never made progress")
	require.NoError(t, first.cmd.Process.Signal(syscall.SIGKILL))
	_ = first.cmd.Wait()
	task, err := api.Get(ctx, ids[0])
	require.Error(t, err, "the server is dead")
	assert.Zero(t, task.ID)

	second := startServer(t, bin, dir, args)
	api, err = client.New(second.url, key, client.WithHTTPClient(hc))
	require.NoError(t, err)
	got, err := api.Get(ctx, ids[0])
	require.NoError(t, err)
	assert.False(t, got.Status.Final(), "the task was interrupted, not finished: %s", got.Status)
	waitCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	for _, id := range ids {
		done, err := api.Wait(waitCtx, id, 200*time.Millisecond)
		require.NoError(t, err, "task %d (stderr: %s)", id, second.stderr())
		assert.Equal(t, exporttask.StatusCompleted, done.Status, "task %d", id)
		assert.NotEmpty(t, done.Artifacts)
	}
	completed := 0
	for _, d := range rc.waitFor(t, 30*time.Second, exporttask.EventCompleted) {
		require.NoError(t, d.verify([]byte(secret), "acme"))
		if d.payload.Event == exporttask.EventCompleted {
			completed++
		}
	}
	assert.Positive(t, completed)

	// SIGTERM stops it cleanly.
	require.NoError(t, second.cmd.Process.Signal(syscall.SIGTERM))
	exited := make(chan error, 1)
	go func() { exited <- second.cmd.Wait() }()
	select {
	case err := <-exited:
		assert.NoError(t, err, "exit status after SIGTERM (stderr: %s)", second.stderr())
	case <-time.After(25 * time.Second):
		t.Fatal("the server did not stop within 25s of SIGTERM")
	}
	assert.Positive(t, spec.Count())
}

// buildExampleServer compiles the reference program, cmd/exportserver
// (examples/server at the repository's root is the same), into dir.
func buildExampleServer(t *testing.T, dir string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	bin := filepath.Join(dir, "server")
	out, err := exec.Command(goBin, "build", "-o", bin, "../cmd/exportserver").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// process is a running example server.
type process struct {
	cmd    *exec.Cmd
	url    string
	errBuf *syncBuffer
}

func (p *process) stderr() string { return p.errBuf.String() }

// startServer runs bin in dir and returns once it printed its URL. The
// process is killed when the test ends.
func startServer(t *testing.T, bin, dir string, args []string) *process {
	t.Helper()
	return startServerEnv(t, bin, dir, args, nil)
}

// startServerEnv is startServer with the environment variables env
// ("NAME=value") added to the test's.
func startServerEnv(t *testing.T, bin, dir string, args, env []string) *process {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "EXPORTTASK_ADDR=", "EXPORTTASK_DB="), env...)
	errBuf := &syncBuffer{}
	cmd.Stderr = errBuf
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
				urls <- strings.Fields(rest)[0]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-urls:
		return &process{cmd: cmd, url: u, errBuf: errBuf}
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not start within 30s; stderr: %s", errBuf.String())
		return nil
	}
}
