package exportserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// TestBannerLinesRunAsPasted starts the example server as a new user does
// (real exports of the demo catalog, a generated key, the default
// loopback-only address, no -webhook-allow), runs each create line of its
// banner with bash -c exactly as printed, and waits for the three tasks,
// one per domain, to complete.
func TestBannerLinesRunAsPasted(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	dir := t.TempDir()
	cfg, err := ParseConfig([]string{"-addr", "127.0.0.1:0", "-db", dir + "/tasks.db", "-catalog", dir + "/catalog"}, envOf(nil), io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, w, slog.New(slog.NewJSONHandler(io.Discard, nil)))
		_ = w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(20 * time.Second):
			t.Error("Run did not return within 20s of its context ending")
		}
	})

	var lines []string
	var text strings.Builder
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		text.WriteString(sc.Text() + "\n")
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "curl -s ") {
			lines = append(lines, line)
		}
		if strings.HasPrefix(sc.Text(), "to see the signed webhooks") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	require.Len(t, lines, 3, "one create line per domain in:\n%s", text.String())
	url := field(t, text.String(), "listening on ")
	key := field(t, text.String(), "development API key (customer \"dev\", read+write): ")
	assert.Contains(t, text.String(), "examples/webhook-receiver on 127.0.0.1:8090")

	ids := map[exporttask.Domain]int64{}
	for _, line := range lines {
		cmd := exec.CommandContext(ctx, "bash", "-c", line)
		b, err := cmd.Output()
		require.NoError(t, err, "%s", line)
		var task exporttask.Task
		require.NoError(t, json.Unmarshal(b, &task), "the answer to %s: %s", line, b)
		require.NotZero(t, task.ID, "%s", b)
		ids[task.Domain] = task.ID
	}
	assert.Len(t, ids, 3, "one task per domain")

	deadline := time.Now().Add(2 * time.Minute)
	for d, id := range ids {
		for {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/export-tasks/"+strconv.FormatInt(id, 10), nil)
			require.NoError(t, err)
			req.Header.Set("X-Api-Key", key)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			var task exporttask.Task
			err = json.NewDecoder(resp.Body).Decode(&task)
			_ = resp.Body.Close()
			require.NoError(t, err)
			if task.Status.Final() {
				assert.Equal(t, exporttask.StatusCompleted, task.Status, "%s: %s", d, task.ErrorReason)
				assert.NotEmpty(t, task.Artifacts, d)
				break
			}
			require.True(t, time.Now().Before(deadline), "%s task %d is still %s", d, id, task.Status)
			select {
			case <-ctx.Done():
				t.Fatal(ctx.Err())
			case <-time.After(50 * time.Millisecond): // a poll interval, not a wait for an event
			}
		}
	}
}
