package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// TestKilledDuringCreateBurstLosesNoAnsweredCreate builds examples/server,
// sends a burst of 1,000 creates from 32 clients, kills the server with
// SIGKILL part-way, starts it again on the same database and reads every
// task that was answered 201: none is lost (both stores commit before the
// answer). SIGKILL leaves the operating system's cache intact, so this
// checks the order of commit and answer, not durability across a power
// loss.
func TestKilledDuringCreateBurstLosesNoAnsweredCreate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server")
	}
	dir := t.TempDir()
	bin := buildExampleServer(t, dir)
	t.Run("sqlite", func(t *testing.T) {
		killDuringBurst(t, bin, dir, filepath.Join(dir, "tasks.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		killDuringBurst(t, bin, dir, postgresSchema(t))
	})
}

func killDuringBurst(t *testing.T, bin, dir, db string) {
	const key = "crash-test-key"
	const total, clients, killAfter = 1000, 32, 300
	args := []string{"-addr", "127.0.0.1:0", "-db", db, "-keys", key + "=acme:read+write",
		"-exporter", "simulate", "-task-duration", "1h", "-webhook-allow", "127.0.0.0/8"}
	first := startServer(t, bin, dir, args)

	var (
		mu       sync.Mutex
		answered []int64 // ids answered 201
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	killed := make(chan struct{})
	var killOnce sync.Once
	hc := &http.Client{Timeout: 10 * time.Second}
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := int(next.Add(1))
				if n > total {
					return
				}
				id, ok := createOnce(hc, first.url, key, n)
				if !ok {
					continue // refused or cut off by the kill: not answered 201
				}
				mu.Lock()
				answered = append(answered, id)
				enough := len(answered) >= killAfter
				mu.Unlock()
				if enough {
					killOnce.Do(func() {
						_ = first.cmd.Process.Signal(syscall.SIGKILL)
						close(killed)
					})
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-killed:
	default:
		t.Fatalf("the burst ended before %d creates were answered (%d were)", killAfter, len(answered))
	}
	_ = first.cmd.Wait()
	require.GreaterOrEqual(t, len(answered), killAfter)

	second := startServer(t, bin, dir, args)
	lost := 0
	for _, id := range answered {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet,
			fmt.Sprintf("%s/export-tasks/%d", second.url, id), nil)
		require.NoError(t, err)
		req.Header.Set("x-api-key", key)
		res, err := hc.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			lost++
			t.Errorf("task %d was answered 201 before the kill; after the restart GET answers %d", id, res.StatusCode)
		}
	}
	t.Logf("%d creates answered 201 before the kill, %d lost", len(answered), lost)
	assert.Zero(t, lost)
}

// createOnce POSTs the n-th distinct create; ok reports a 201 answer, with
// the new task's id.
func createOnce(hc *http.Client, base, key string, n int) (id int64, ok bool) {
	body, err := json.Marshal(testkit.SampleRequestTo(n, "http://127.0.0.1:9/hook"))
	if err != nil {
		return 0, false
	}
	req, err := http.NewRequest(http.MethodPost, base+"/export-tasks", bytes.NewReader(body))
	if err != nil {
		return 0, false
	}
	req.Header.Set("x-api-key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return 0, false
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		return 0, false
	}
	var task struct {
		ID int64 `json:"id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&task); err != nil || task.ID == 0 {
		return 0, false
	}
	return task.ID, true
}
