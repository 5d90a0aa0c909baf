package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/exportserver"
)

// TestQuickStart runs what docs/exporttask.md's quick start runs, in-process: the
// example server with -webhook-allow 127.0.0.0/8 and the receiver with the
// key the server printed. A task subscribed to the receiver gets its
// TASK_STARTED and TASK_COMPLETED deliveries verified and printed, and a
// delivery signed with another secret is refused with 401 and logged.
func TestQuickStart(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	// The server (simulated exports, so that no demo catalog is written).
	cfg, err := exportserver.ParseConfig([]string{"-addr", "127.0.0.1:0", "-db", ":memory:", "-exporter", "simulate",
		"-task-duration", "300ms", "-catalog", t.TempDir(), "-artifacts", t.TempDir(), "-webhook-allow", "127.0.0.0/8"},
		func(string) string { return "" }, io.Discard)
	require.NoError(t, err)
	var banner lockedBuffer
	serverDone := make(chan error, 1)
	go func() {
		serverDone <- exportserver.Run(ctx, cfg, &banner, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	text := waitForText(t, &banner, 10*time.Second, "listening on ", "development API key", "curl")
	base := wordAfter(t, text, "listening on ")
	key := wordAfter(t, text, "development API key (customer \"dev\", read+write): ")

	// The receiver, as the quick start starts it (on a free port).
	var events, logs lockedBuffer
	ready := make(chan string, 1)
	receiverDone := make(chan error, 1)
	go func() {
		receiverDone <- run(ctx, []string{"-addr", "127.0.0.1:0", "-key", key, "-secret-from", base + "/webhook-secret"}, &events, &logs, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-receiverDone:
		t.Fatalf("the receiver stopped at start: %v\n%s", err, logs.String())
	}
	assert.Contains(t, logs.String(), "webhook receiver listening on http://"+addr+"/")
	hook := "http://" + addr + "/hooks"
	assert.Contains(t, text, "go run ./examples/webhook-receiver -key "+key, "the server's banner names the receiver")

	body := `{"catalogRecordID":"8b867544-2dab-43a1-be6e-f23ec83c19b4","domain":"RASTER","artifactCRS":"4326",` +
		`"webhook":[{"url":"` + hook + `","events":["TASK_STARTED","TASK_COMPLETED"]}]}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/export-tasks", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("x-api-key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)

	out := waitForText(t, &events, 30*time.Second, ": TASK_STARTED task 1 IN_PROGRESS", ": TASK_COMPLETED task 1 COMPLETED 100% artifacts: ")
	assert.Equal(t, 2, strings.Count(out, "\n"), "one line per event:\n%s", out)
	assert.Regexp(t, `(?m)^\S+Z delivery \d+: TASK_COMPLETED task 1 COMPLETED 100% artifacts: \S+ \(\w+, [\d.]+ k?B\)`, out)
	assert.NotContains(t, logs.String(), "level=WARN", "no delivery refused")

	// A forger who knows the receiver's URL but not the customer's secret.
	forged := []byte(`{"event":"TASK_FAILED","timestamp":"2026-11-23T14:40:02.000Z","data":{"id":1,"status":"FAILED","progress":0,"artifacts":[]}}`)
	wrong := exporttask.CustomerWebhookSecret([]byte("a guess"), "dev")
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, hook, bytes.NewReader(forged))
	require.NoError(t, err)
	req.Header.Set(exporttask.DeliveryHeader, "999")
	req.Header.Set(exporttask.SignatureHeader, exporttask.SignWebhook(wrong, "999", time.Now(), forged))
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	answer, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	assert.Equal(t, "signature does not match this receiver's secret (forged, altered, or another customer's)\n", string(answer))
	assert.Contains(t, logs.String(), `hint="if the server's webhook secret changed since this receiver started`)
	assert.Contains(t, logs.String(), `level=WARN msg="delivery refused: signature does not match`)
	assert.Contains(t, logs.String(), "delivery=999")
	assert.NotContains(t, events.String(), "TASK_FAILED")

	cancel()
	for name, done := range map[string]chan error{"server": serverDone, "receiver": receiverDone} {
		select {
		case err := <-done:
			assert.NoError(t, err, name)
		case <-time.After(20 * time.Second):
			t.Fatalf("the %s did not stop within 20s of its context ending", name)
		}
	}
}

// wordAfter returns the first word after prefix in text.
func wordAfter(t *testing.T, text, prefix string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, prefix)
	require.True(t, ok, "no %q in:\n%s", prefix, text)
	return strings.Fields(rest)[0]
}
