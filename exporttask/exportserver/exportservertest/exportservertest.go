package exportservertest

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/exportserver"
)

// Start runs the server with the command-line arguments args (the
// environment is not read) until the test ends, and returns its base URL
// once it listens. Give "-addr", "127.0.0.1:0" to listen on a free port.
// The test fails when the server does not start, or does not stop within
// 20 s of the test's end, or stops with an error.
func Start(t testing.TB, args ...string) string {
	t.Helper()
	cfg, err := exportserver.ParseConfig(args, func(string) string { return "" }, io.Discard)
	require.NoError(t, err, "the server's arguments")
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- exportserver.Run(ctx, cfg, w, slog.New(slog.NewJSONHandler(io.Discard, nil)))
		_ = w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err, "the server's exit")
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop within 20s")
		}
	})
	sc := bufio.NewScanner(out)
	url := ""
	for url == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
			url = strings.Fields(rest)[0]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	require.NotEmpty(t, url, "the server printed no address")
	return url
}
