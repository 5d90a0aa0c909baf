package exportserver

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestRunServesAndStops runs the program on an in-memory store: it prints
// the URL, the generated key, the secret and a curl line, serves the API
// with that key, and returns nil once its context is cancelled.
func TestRunServesAndStops(t *testing.T) {
	cfg, err := ParseConfig([]string{"-addr", "127.0.0.1:0", "-db", ":memory:", "-catalog", t.TempDir(), "-scratch", t.TempDir(),
		"-artifacts", t.TempDir()}, envOf(nil), io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, w, slog.New(slog.NewJSONHandler(io.Discard, nil)))
		_ = w.Close()
	}()

	var banner []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		banner = append(banner, sc.Text())
		if strings.Contains(sc.Text(), "curl -s") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	text := strings.Join(banner, "\n")
	url := field(t, text, "listening on ")
	key := field(t, text, "development API key (customer \"dev\", read+write): ")
	assert.Contains(t, text, "docs: "+url+"/docs/")
	assert.Contains(t, text, "webhook master secret (generated")
	assert.Contains(t, text, `curl -s -H "x-api-key: `+key+`"`)
	assert.Contains(t, text, "RASTER 8b867544-2dab-43a1-be6e-f23ec83c19b4, DEM 3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60, 3D c0ffee00-3d3d-4d3d-8d3d-0123456789ab")

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/export-tasks", nil)
	require.NoError(t, err)
	req.Header.Set("X-Api-Key", key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of its context ending")
	}
	_, err = http.Get(url + "/healthz")
	assert.Error(t, err, "nothing listens after Run returned")
}

// field returns the first word after prefix in text.
func field(t *testing.T, text, prefix string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, prefix)
	require.True(t, ok, "no %q in:\n%s", prefix, text)
	return strings.Fields(rest)[0]
}

func TestBaseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"[::]:8080":      "http://localhost:8080",
		"0.0.0.0:80":     "http://localhost:80",
		"127.0.0.1:5000": "http://127.0.0.1:5000",
		"[::1]:5000":     "http://[::1]:5000",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		require.NoError(t, err)
		assert.Equal(t, want, baseURL(a), addr)
	}
}

// TestExampleBodiesAreValid: the bodies of the curl lines printed at start
// are valid create requests, one per domain.
func TestExampleBodiesAreValid(t *testing.T) {
	var domains []string
	for _, e := range exampleBodies {
		req, err := exporttask.DecodeCreateRequest(strings.NewReader(e.body))
		require.NoError(t, err)
		domains = append(domains, string(req.Domain))
	}
	assert.Equal(t, []string{"RASTER", "DEM", "3D"}, domains)
}

// stuckWork is background work that ignores its context, as an export
// blocked in a read that never ends would.
type stuckWork struct{ started chan struct{} }

func (w stuckWork) run(context.Context) error {
	close(w.started)
	select {}
}

// TestServeStopsWithinTheGrace: at shutdown, workers that do not stop are
// waited for only the grace period; serve then returns, so the process
// exits. Before, it waited for them forever.
func TestServeStopsWithinTheGrace(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	w := stuckWork{started: make(chan struct{})}
	done := make(chan error, 1)
	const grace = 200 * time.Millisecond
	go func() {
		done <- serve(ctx, w, NewHTTPServer(http.NotFoundHandler(), time.Second, slog.New(slog.DiscardHandler)), ln, grace, slog.New(slog.DiscardHandler))
	}()
	<-w.started
	cancel()
	stopped := time.Now()
	select {
	case err := <-done:
		assert.NoError(t, err)
		assert.GreaterOrEqual(t, time.Since(stopped), grace)
	case <-time.After(10 * time.Second):
		t.Fatal("serve still waits for stuck workers 10s after the shutdown signal")
	}
}
