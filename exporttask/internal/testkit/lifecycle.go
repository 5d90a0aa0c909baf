package testkit

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// Secret is the master secret of the tests' deliverers; each customer's
// deliveries are signed with exporttask.CustomerWebhookSecret(Secret(), customer).
func Secret() []byte { return []byte("webhook-test-secret") }

// Loopback lets webhooks reach the httptest receivers.
func Loopback() []netip.Prefix { return []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} }

// ForEachStore runs test against each store the lifecycle tests use, as a
// subtest named after it: today a fresh in-memory SQLite store (the
// PostgreSQL store runs the same code paths in package server's e2e test
// and in package storetest's conformance suite).
func ForEachStore(t *testing.T, test func(t *testing.T, s taskstore.Store)) {
	t.Run("sqlite", func(t *testing.T) { test(t, OpenStore(t)) })
}

// QuietLogger drops logs unless the test is verbose.
func QuietLogger(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(string(b))
	return len(b), nil
}

// Received is one request a [Receiver] got.
type Received struct {
	Event, Delivery, ContentType, UserAgent string // the X-Export-* and other headers
	Payload                                 exporttask.EventPayload
	VerifyErr                               error // the signature check with [Customer]'s secret
}

// Receiver is a webhook endpoint on loopback that verifies signatures and
// answers with respond (200 when nil).
type Receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []Received
	respond func(n int, w http.ResponseWriter, r *http.Request) // n counts requests from 0
}

// NewReceiver starts a Receiver that answers with respond (200 when nil)
// and stops it when t ends.
func NewReceiver(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *Receiver {
	rc := &Receiver{respond: respond}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if !assert.NoError(t, err) {
			return
		}
		got := Received{
			Event:       r.Header.Get("X-Export-Event"),
			Delivery:    r.Header.Get("X-Export-Delivery"),
			ContentType: r.Header.Get("Content-Type"),
			UserAgent:   r.Header.Get("User-Agent"),
			VerifyErr: exporttask.VerifyWebhook(exporttask.CustomerWebhookSecret(Secret(), Customer),
				r.Header.Get(exporttask.SignatureHeader), r.Header.Get(exporttask.DeliveryHeader), body, time.Now(), time.Minute),
		}
		assert.NoError(t, json.Unmarshal(body, &got.Payload))
		rc.mu.Lock()
		n := len(rc.got)
		rc.got = append(rc.got, got)
		rc.mu.Unlock()
		if rc.respond != nil {
			rc.respond(n, w, r)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

// Requests returns the requests received so far.
func (rc *Receiver) Requests() []Received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Received(nil), rc.got...)
}

// Events returns the events of the requests received so far.
func (rc *Receiver) Events() []exporttask.Event {
	var evs []exporttask.Event
	for _, r := range rc.Requests() {
		evs = append(evs, r.Payload.Event)
	}
	return evs
}

// RecordingStore records the outcomes the Deliverer reports.
type RecordingStore struct {
	taskstore.Store
	mu      sync.Mutex
	results map[int64][]taskstore.DeliveryResult
}

// NewRecordingStore wraps s to record delivery outcomes.
func NewRecordingStore(s taskstore.Store) *RecordingStore {
	return &RecordingStore{Store: s, results: map[int64][]taskstore.DeliveryResult{}}
}

// DeliveryDone records r when s's store accepts it.
func (s *RecordingStore) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) error {
	err := s.Store.DeliveryDone(ctx, id, r)
	if err == nil {
		s.mu.Lock()
		s.results[id] = append(s.results[id], r)
		s.mu.Unlock()
	}
	return err
}

// Outcomes returns the outcomes recorded for delivery id.
func (s *RecordingStore) Outcomes(id int64) []taskstore.DeliveryResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]taskstore.DeliveryResult(nil), s.results[id]...)
}

// Recorded counts the outcomes recorded for every delivery.
func (s *RecordingStore) Recorded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.results {
		n += len(r)
	}
	return n
}

// FinalOutcomes waits for a final outcome of delivery id (delivered or given
// up) and returns every outcome recorded for it.
func (s *RecordingStore) FinalOutcomes(t *testing.T, id int64) []taskstore.DeliveryResult {
	t.Helper()
	require.Eventually(t, func() bool {
		o := s.Outcomes(id)
		return len(o) > 0 && (o[len(o)-1].Delivered || o[len(o)-1].NextAttempt.IsZero())
	}, 5*time.Second, 2*time.Millisecond, "delivery %d never reached a final outcome", id)
	return s.Outcomes(id)
}

// CreateTask stores a PENDING task with the simulator's estimate, whose
// webhook (when url is not empty) subscribes to events.
func CreateTask(t *testing.T, s taskstore.Store, customer string, d exporttask.Domain, url string, events ...exporttask.Event) exporttask.Task {
	t.Helper()
	r := exporttask.CreateRequest{
		CatalogRecordID: "8b867544-2dab-43a1-be6e-f28f9c0ff5b5",
		Domain:          d,
		ArtifactCRS:     exporttask.CRS4326,
		Description:     "lifecycle test of " + string(d),
		Webhook:         []exporttask.Webhook{},
	}
	if url != "" {
		r.Webhook = []exporttask.Webhook{{URL: url, Events: events}}
	}
	est, err := simulate.New(simulate.Config{}).Estimate(context.Background(), r)
	require.NoError(t, err)
	id, err := taskstore.Identify(r, "")
	require.NoError(t, err)
	id.Dedup += "-" + url
	task, replayed, err := s.Create(context.Background(), taskstore.CreateParams{
		Customer: customer, Request: r, EstimatedSize: est.Size, EstimatedTime: est.Time,
		Identity: id, Now: time.Now(),
	})
	require.NoError(t, err)
	require.False(t, replayed)
	return task
}

// WaitStatus waits until the task reaches status.
func WaitStatus(t *testing.T, s taskstore.Store, customer string, id int64, status exporttask.Status) exporttask.Task {
	t.Helper()
	var got exporttask.Task
	require.Eventually(t, func() bool {
		var err error
		got, err = s.Get(context.Background(), customer, id)
		require.NoError(t, err)
		return got.Status == status
	}, 10*time.Second, 2*time.Millisecond, "task %d never reached %s (last %s)", id, status, got.Status)
	return got
}

// WaitDeliveriesSettled waits until no webhook delivery in s is pending:
// each one is delivered or given up, so none will be attempted again.
// Stopping the deliverer after this proves that no request arrives later.
func WaitDeliveriesSettled(t *testing.T, s taskstore.Store) {
	t.Helper()
	var st taskstore.Stats
	require.Eventually(t, func() bool {
		var err error
		st, err = s.Stats(context.Background())
		require.NoError(t, err)
		return st.DeliveriesPending == 0
	}, 10*time.Second, 2*time.Millisecond, "deliveries still pending: %d", st.DeliveriesPending)
}

// Background runs fn (a Run method) until the test cancels it; stop cancels
// and waits for fn to return, failing when it takes more than 5 seconds.
func Background(t *testing.T, run func(context.Context) error) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				assert.NoError(t, err)
			case <-time.After(5 * time.Second):
				t.Error("Run did not return within 5s of its context ending")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// Artifacts returns a file artifact store in a fresh temporary directory.
func Artifacts(t *testing.T) *filestore.Store {
	t.Helper()
	st, err := filestore.Open(context.Background(), t.TempDir())
	require.NoError(t, err)
	return st
}

// FastRunner is a Runner with test-sized durations, writing artifacts to
// a fresh [Artifacts] store unless mod sets one.
func FastRunner(t *testing.T, s taskstore.Store, e export.Exporter, mod func(*worker.RunnerConfig)) *worker.Runner {
	cfg := worker.RunnerConfig{
		Store: s, Exporter: e, Artifacts: Artifacts(t), Workers: 2, Lease: time.Second, PollInterval: 5 * time.Millisecond,
		Retention: time.Hour, SweepInterval: 10 * time.Millisecond, RetryDelay: 20 * time.Millisecond, Logger: QuietLogger(t),
	}
	if mod != nil {
		mod(&cfg)
	}
	r, err := worker.NewRunner(cfg)
	require.NoError(t, err)
	return r
}

// FastDeliverer is a Deliverer with test-sized durations that may reach
// loopback.
func FastDeliverer(t *testing.T, s taskstore.Store, mod func(*webhook.DelivererConfig)) *webhook.Deliverer {
	cfg := webhook.DelivererConfig{
		Store: s, Secret: Secret(), Allow: Loopback(), Timeout: 2 * time.Second,
		BaseBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		PollInterval: 5 * time.Millisecond, Logger: QuietLogger(t),
	}
	if mod != nil {
		mod(&cfg)
	}
	d, err := webhook.NewDeliverer(cfg)
	require.NoError(t, err)
	return d
}

// NoLeftoverGoroutines checks, goleak-style, that no goroutine is left in
// the Runner's or Deliverer's code, or in an HTTP client connection of the
// Deliverer's transport.
func NoLeftoverGoroutines(t *testing.T) {
	t.Helper()
	leftover := func() []string {
		buf := make([]byte, 1<<20)
		var out []string
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "exporttask/worker.(*Runner)") || strings.Contains(g, "exporttask/webhook.(*Deliverer)") ||
				strings.Contains(g, "exporttask/worker.(*taskRun)") || strings.Contains(g, "net/http.(*persistConn)") {
				out = append(out, g)
			}
		}
		return out
	}
	assert.Eventually(t, func() bool { return len(leftover()) == 0 }, 5*time.Second, 5*time.Millisecond,
		"goroutines left over:\n%s", strings.Join(leftover(), "\n\n"))
}
