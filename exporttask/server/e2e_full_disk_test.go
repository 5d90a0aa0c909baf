package server_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
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
	"github.com/openapi-viewer/viewer/exporttask/exportserver"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// mountTmpfs mounts a tmpfs of size (mount's syntax: 16m) on a new
// directory, unmounted when t ends. It skips t where a tmpfs cannot be
// mounted (not root, no mount command, a container without the right).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	testkit.MountTmpfs(t, dir, size)
	return dir
}

// fillDisk writes a file in dir until the file system is full and returns
// its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			require.ErrorIs(t, err, syscall.ENOSPC)
			return path
		}
	}
}

// runExampleServer runs the example server (exportserver.Run) in this
// process with args and returns its base URL; it stops when t ends.
func runExampleServer(t *testing.T, args []string) string {
	t.Helper()
	cfg, err := exportserver.ParseConfig(args, func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- exportserver.Run(ctx, cfg, w, slog.New(slog.NewJSONHandler(io.Discard, nil)))
		_ = w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	sc := bufio.NewScanner(out)
	var url string
	for url == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
			url = strings.Fields(rest)[0]
		}
	}
	require.NotEmpty(t, url, "the server printed no address")
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return url
}

// TestFullDisk runs the example server with its SQLite database and its
// files on a small tmpfs, fills the disk, and sees creates answered 507
// with Retry-After and /readyz 503, never 500; once the space is freed,
// both recover. Every answer is checked against openapi.yaml.
func TestFullDisk(t *testing.T) {
	disk := mountTmpfs(t, "16m")
	const key = "full-disk-key"
	url := runExampleServer(t, []string{"-addr", "127.0.0.1:0", "-db", filepath.Join(disk, "tasks.db"),
		"-artifacts", filepath.Join(disk, "files"), "-catalog", t.TempDir(), "-keys", key + "=acme",
		"-exporter", "simulate", "-task-duration", "1h", "-webhook-allow", "127.0.0.0/8"})
	spec := testkit.NewSpecChecker(t)
	hc := &http.Client{Transport: spec.Transport(http.DefaultTransport), Timeout: 10 * time.Second}
	n := 0
	create := func() (*http.Response, []byte) {
		n++
		body := mustJSON(t, testkit.SampleRequestTo(n, "http://127.0.0.1:9/hook"))
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url+"/export-tasks", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Api-Key", key)
		req.Header.Set("Content-Type", "application/json")
		return send(t, hc, req)
	}
	ready := func() (*http.Response, []byte) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url+"/readyz", nil)
		require.NoError(t, err)
		return send(t, hc, req)
	}

	resp, body := create()
	require.Equal(t, http.StatusCreated, resp.StatusCode, "body: %s", body)
	resp, _ = ready()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	filler := fillDisk(t, disk)
	// The write-ahead log may still hold room for a few creates; each
	// answer is 201 or 507, and a 507 comes within a bounded number.
	full := false
	for range 500 {
		resp, body = create()
		if resp.StatusCode == http.StatusInsufficientStorage {
			full = true
			break
		}
		require.Equal(t, http.StatusCreated, resp.StatusCode, "a create on a full disk: %s", body)
	}
	require.True(t, full, "no create met the full disk")
	t.Logf("the create #%d met the full disk", n)
	p := assertProblem(t, resp, body, http.StatusInsufficientStorage, exporttask.ProblemTypeBlank)
	assert.Contains(t, p.Detail, "storage is full")
	assert.Equal(t, "120", resp.Header.Get("Retry-After"))
	require.Eventually(t, func() bool {
		resp, _ := ready()
		return resp.StatusCode == http.StatusServiceUnavailable
	}, 10*time.Second, 50*time.Millisecond, "/readyz reports the full disk")
	resp, body = ready()
	p = assertProblem(t, resp, body, http.StatusServiceUnavailable, exporttask.ProblemTypeBlank)
	assert.Contains(t, p.Detail, "disk is full")

	require.NoError(t, os.Remove(filler))
	require.Eventually(t, func() bool {
		resp, _ := ready()
		return resp.StatusCode == http.StatusOK
	}, 10*time.Second, 50*time.Millisecond, "/readyz recovers once space is freed")
	resp, body = create()
	assert.Equal(t, http.StatusCreated, resp.StatusCode, "a create after space was freed: %s", body)
	assert.Positive(t, spec.Count())
}

// send sends req with hc and returns the response and its body.
func send(t *testing.T, hc *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}
