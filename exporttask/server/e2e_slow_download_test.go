package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/exportserver"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/server"
)

// bigExporter writes one GPKG artifact of size pseudo-random bytes (the
// same bytes for every task).
type bigExporter struct{ size int64 }

func (e bigExporter) Estimate(context.Context, exporttask.CreateRequest) (export.Estimate, error) {
	return export.Estimate{Size: e.size, Time: 1}, nil
}

func (e bigExporter) Export(ctx context.Context, _ exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	w, err := out.Create(ctx, "big.gpkg")
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	rng := rand.NewChaCha8([32]byte{1})
	if _, err := io.CopyN(w, rng, e.size); err != nil {
		return nil, err
	}
	info, err := w.Commit()
	if err != nil {
		return nil, err
	}
	return []exporttask.Artifact{{Name: "big.gpkg", Type: exporttask.ArtifactGPKG, Size: info.Size, SHA256: info.SHA256}}, nil
}

// slowServer serves a harness's API through the example server's
// http.Server (exportserver.NewHTTPServer) with the given write timeout,
// and returns the harness, its base URL and a completed task's big
// artifact.
func slowServer(t *testing.T, size int64, writeTimeout, idle time.Duration) (*harness, string, exporttask.Artifact) {
	t.Helper()
	h := newHarness(t, exporttasktest.WithExporter(bigExporter{size: size}),
		exporttasktest.WithServerConfig(func(c *server.Config) { c.DownloadIdleTimeout = idle }))
	hs := exportserver.NewHTTPServer(h.API.Handler(), writeTimeout, slog.New(slog.NewJSONHandler(h.logs, nil)))
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ln := smallSendBufferListener{tcp}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	t.Cleanup(func() {
		_ = hs.Close()
		assert.ErrorIs(t, <-served, http.ErrServerClosed)
	})
	task := h.completedTask(t, 1)
	require.Len(t, task.Artifacts, 1)
	return h, "http://" + ln.Addr().String(), task.Artifacts[0]
}

// smallSendBufferListener gives each accepted connection a 16 KiB send
// buffer (which stops the kernel from growing it to megabytes on
// loopback), so that a download's writes block while the client does not
// read, as they do on a slow link.
type smallSendBufferListener struct{ net.Listener }

func (l smallSendBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		if err := tc.SetWriteBuffer(16 << 10); err != nil {
			_ = c.Close()
			return nil, err
		}
	}
	return c, nil
}

// smallWindowClient is an HTTP client whose sockets have a 16 KiB receive
// buffer, so that what the test has not read stays in the server's
// writes rather than in the client's kernel, and a fresh connection per
// request.
func smallWindowClient() *http.Client {
	d := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10)
		}); err != nil {
			return err
		}
		return serr
	}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// throttledRead reads body at about rate bytes per second: a slice of
// rate/10 bytes at each tick of a 100ms ticker.
func throttledRead(body io.Reader, rate int) ([]byte, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var out []byte
	buf := make([]byte, rate/10)
	for {
		n, err := io.ReadFull(body, buf)
		out = append(out, buf[:n]...)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) && n < len(buf) {
			// A short last slice: ReadFull's ErrUnexpectedEOF at the end
			// of a complete body; a cut body is told by its length.
			return out, nil
		}
		if err != nil {
			return out, err
		}
		<-tick.C
	}
}

// TestSlowDownloadOutlivesWriteTimeout: a download read slowly for longer
// than the http.Server's write timeout completes with the right bytes.
//
// Before downloads extended their deadline, every download was cut when
// the server's 30s write timeout ran out. Proving "longer than 30s" with
// 30s would make the test last minutes, so the timeouts are scaled down:
// the server's write timeout is 2s, its download idle timeout 3s (room
// for a loaded machine to pause the reader), and the client reads 500 KiB
// at 100 kB/s, 5s or more: longer than both. Small socket buffers on
// both ends keep most of the file in the server's pending writes, which
// the old 2s deadline would have cut (checked: without the deadline's
// extension this test fails). The issue's own figures (100 kB/s for
// more than 60s, 30s timeouts) are the same test with
// VIEWER_TEST_SLOW_DOWNLOAD=1, which makes the file 6.5 MB and keeps the
// default timeouts.
func TestSlowDownloadOutlivesWriteTimeout(t *testing.T) {
	size, writeTimeout, idle := int64(500<<10), 2*time.Second, 3*time.Second
	if os.Getenv("VIEWER_TEST_SLOW_DOWNLOAD") == "1" {
		size, writeTimeout, idle = 6_500_000, 30*time.Second, server.DefaultDownloadIdleTimeout
	}
	const rate = 100_000
	h, base, a := slowServer(t, size, writeTimeout, idle)
	path := "/export-tasks/1/artifacts/" + a.Name

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+path, nil)
	require.NoError(t, err)
	req.Header.Set("X-Api-Key", h.Key)
	start := time.Now()
	resp, err := smallWindowClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := throttledRead(resp.Body, rate)
	elapsed := time.Since(start)
	require.NoError(t, err, "read %d of %d bytes in %s", len(body), size, elapsed)
	require.Equal(t, size, int64(len(body)), "the whole file, after %s", elapsed)
	sum := sha256.Sum256(body)
	assert.Equal(t, a.SHA256, hex.EncodeToString(sum[:]))
	assert.Greater(t, elapsed, 2*writeTimeout, "the download lasted well beyond the write timeout")
	assert.Greater(t, elapsed, idle, "and beyond the idle timeout: only a pause is cut")
	t.Logf("%d bytes in %s", len(body), elapsed)
}

// TestStalledDownloadIsCut: a client that stops reading is cut after the
// idle timeout; the body ends short of its Content-Length, and the cut is
// logged at INFO, not as a server error.
func TestStalledDownloadIsCut(t *testing.T) {
	const size = 4 << 20
	h, base, a := slowServer(t, size, 2*time.Second, 500*time.Millisecond)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/export-tasks/1/artifacts/"+a.Name, nil)
	require.NoError(t, err)
	req.Header.Set("X-Api-Key", h.Key)
	resp, err := smallWindowClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, strconv.Itoa(size), resp.Header.Get("Content-Length"))
	head := make([]byte, 1024)
	_, err = io.ReadFull(resp.Body, head)
	require.NoError(t, err)

	// The client reads nothing more until the server has given up.
	require.Eventually(t, func() bool { return strings.Contains(h.logs.String(), "download cut") },
		20*time.Second, 10*time.Millisecond, "the server cuts the stalled download")
	rest, err := io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "the body ends short of its Content-Length")
	assert.Less(t, len(head)+len(rest), size)
	logs := h.logs.String()
	assert.Contains(t, logs, `"level":"INFO","msg":"download cut: the client went away or stopped reading"`)
	assert.NotContains(t, logs, `"level":"ERROR"`)
}
