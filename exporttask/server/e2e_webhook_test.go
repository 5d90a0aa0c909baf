package server_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// delivery is one webhook POST a test receiver got.
type delivery struct {
	event, id, signature string
	body                 []byte
	payload              exporttask.EventPayload
}

// hookReceiver records the webhook deliveries it gets.
type hookReceiver struct {
	mu   sync.Mutex
	got  []delivery
	news chan struct{}
}

func newHookReceiver() *hookReceiver { return &hookReceiver{news: make(chan struct{}, 1)} }

func (rc *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	d := delivery{event: r.Header.Get("X-Export-Event"), id: r.Header.Get("X-Export-Delivery"),
		signature: r.Header.Get("X-Export-Signature"), body: body}
	if err := json.Unmarshal(body, &d.payload); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.got = append(rc.got, d)
	rc.mu.Unlock()
	select {
	case rc.news <- struct{}{}:
	default:
	}
	w.WriteHeader(http.StatusNoContent)
}

// verify checks d's signature with the secret of customer derived from
// the server's master secret.
func (d delivery) verify(master []byte, customer string) error {
	return exporttask.VerifyWebhook(exporttask.CustomerWebhookSecret(master, customer), d.signature, d.id, d.body, time.Now(), time.Minute)
}

// waitFor waits until the hookReceiver got a delivery of every event in want,
// and returns the deliveries so far.
func (rc *hookReceiver) waitFor(t *testing.T, timeout time.Duration, want ...exporttask.Event) []delivery {
	t.Helper()
	deadline := time.After(timeout)
	for {
		rc.mu.Lock()
		got := append([]delivery(nil), rc.got...)
		rc.mu.Unlock()
		seen := map[exporttask.Event]bool{}
		for _, d := range got {
			seen[exporttask.Event(d.event)] = true
		}
		all := true
		for _, ev := range want {
			all = all && seen[ev]
		}
		if all {
			return got
		}
		select {
		case <-rc.news:
		case <-deadline:
			t.Fatalf("the hookReceiver got %d deliveries, not all of %v, within %s", len(got), want, timeout)
		}
	}
}

// TestWebhookLifecycle follows one task from create to COMPLETED: the
// hookReceiver gets TASK_STARTED then TASK_COMPLETED, signed, in order, and the
// task then reads COMPLETED with its artifacts.
func TestWebhookLifecycle(t *testing.T) {
	rc := newHookReceiver()
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	h := newHarness(t, exporttasktest.WithTaskDuration(300*time.Millisecond))
	req := h.sampleRequest(1)
	req.Webhook = []exporttask.Webhook{{URL: hook.URL + "/hooks",
		Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}}}
	task := h.create(t, req)

	got := rc.waitFor(t, 20*time.Second, exporttask.EventStarted, exporttask.EventCompleted)
	require.Len(t, got, 2, "only the subscribed events")
	assert.Equal(t, string(exporttask.EventStarted), got[0].event)
	assert.Equal(t, string(exporttask.EventCompleted), got[1].event)
	assert.NotEqual(t, got[0].id, got[1].id, "each delivery has its own id")
	for _, d := range got {
		require.NoError(t, d.verify(h.WebhookSecret, exporttasktest.Customer), "signature of %s", d.event)
		assert.Error(t, d.verify([]byte("another secret"), exporttasktest.Customer))
		assert.Error(t, d.verify(h.WebhookSecret, otherCust), "another customer's secret does not verify it")
		assert.Equal(t, exporttask.Event(d.event), d.payload.Event)
		assert.Equal(t, task.ID, d.payload.Data.ID)
	}
	assert.Equal(t, exporttask.StatusInProgress, got[0].payload.Data.Status)
	assert.Equal(t, exporttask.StatusCompleted, got[1].payload.Data.Status)

	done, err := h.client.Wait(t.Context(), task.ID, 50*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, done.Status)
	assert.Equal(t, 100, done.Progress)
	assert.NotEmpty(t, done.Artifacts)
	for _, a := range done.Artifacts {
		assert.NotEmpty(t, a.URL, a.Name)
		assert.Len(t, a.SHA256, 64, a.Name)
	}
	assert.False(t, done.FinishedAt.IsZero())
	assert.True(t, done.ExpiredAt.After(done.FinishedAt.Time))
}

// TestWebhookReceiverDownThenUp: deliveries to a hookReceiver that refuses
// connections are retried, and arrive once it listens.
func TestWebhookReceiverDownThenUp(t *testing.T) {
	// Reserve a port, then free it: the hookReceiver is down.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())

	h := newHarness(t, exporttasktest.WithTaskDuration(100*time.Millisecond))
	req := h.sampleRequest(1)
	req.Webhook = []exporttask.Webhook{{URL: "http://" + addr + "/hooks",
		Events: []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}}}
	task := h.create(t, req)
	done, err := h.client.Wait(t.Context(), task.ID, 50*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusCompleted, done.Status)
	// Wait until the first delivery has failed twice against the closed
	// port, so the test shows retries and not only a first attempt. A
	// task's deliveries go in order: the second waits for the first.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	var ds []exporttask.WebhookDelivery
	for failed := false; !failed; {
		select {
		case <-deadline:
			t.Fatalf("the first delivery did not fail twice within 20 s: %+v", ds)
		case <-tick.C:
		}
		ds, _, err = h.client.Deliveries(t.Context(), task.ID, client.DeliveryListOptions{})
		require.NoError(t, err)
		require.Len(t, ds, 2)
		for _, d := range ds {
			require.Equal(t, exporttask.DeliveryStatusPending, d.Status, "delivery %d", d.ID)
		}
		failed = ds[0].Attempts >= 2
	}
	assert.Equal(t, exporttask.DeliveryErrorConnection, ds[0].LastError, "the attempts failed as refused")
	assert.Zero(t, ds[1].Attempts, "the second delivery waits for the first")

	rc := newHookReceiver()
	ln, err = net.Listen("tcp", addr)
	require.NoError(t, err, "listening again on %s", addr)
	up := httptest.NewUnstartedServer(rc)
	up.Listener = ln
	up.Start()
	t.Cleanup(up.Close)

	got := rc.waitFor(t, 30*time.Second, exporttask.EventStarted, exporttask.EventCompleted)
	assert.Equal(t, string(exporttask.EventStarted), got[0].event, "events arrive in order")
	for _, d := range got {
		require.NoError(t, d.verify(h.WebhookSecret, exporttasktest.Customer))
	}
}
