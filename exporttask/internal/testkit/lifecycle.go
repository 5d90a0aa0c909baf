package exporttask_test

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
)

// testSecret signs the deliveries of the tests.
func testSecret() []byte { return []byte("webhook-test-secret") }

// loopback lets webhooks reach the httptest receivers.
func loopback() []netip.Prefix { return []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} }

// storeImpl opens a fresh, empty store for one test.
type storeImpl struct {
	name string
	open func(t *testing.T) exporttask.Store
}

// forEachStore runs a test against every store implementation.
func forEachStore(t *testing.T, test func(t *testing.T, s exporttask.Store)) {
	for _, impl := range storeImpls() {
		t.Run(impl.name, func(t *testing.T) {
			test(t, impl.open(t))
		})
	}
}

// quietLogger drops logs unless the test is verbose.
func quietLogger(t *testing.T) *slog.Logger {
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

// received is one request a receiver got.
type received struct {
	event, delivery, contentType, userAgent string
	payload                                 exporttask.EventPayload
	verifyErr                               error
}

// receiver is a webhook endpoint on loopback that verifies signatures and
// answers with respond (200 when nil).
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []received
	respond func(n int, w http.ResponseWriter, r *http.Request) // n counts requests from 0
}

func newReceiver(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{respond: respond}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if !assert.NoError(t, err) {
			return
		}
		got := received{
			event:       r.Header.Get("X-Export-Event"),
			delivery:    r.Header.Get("X-Export-Delivery"),
			contentType: r.Header.Get("Content-Type"),
			userAgent:   r.Header.Get("User-Agent"),
			verifyErr:   exporttask.VerifyWebhook(testSecret(), r.Header.Get(exporttask.SignatureHeader), body, time.Now(), time.Minute),
		}
		assert.NoError(t, json.Unmarshal(body, &got.payload))
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

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func (rc *receiver) events() []exporttask.Event {
	var evs []exporttask.Event
	for _, r := range rc.requests() {
		evs = append(evs, r.payload.Event)
	}
	return evs
}

// recordingStore records the outcomes the Deliverer reports.
type recordingStore struct {
	exporttask.Store
	mu      sync.Mutex
	results map[int64][]exporttask.DeliveryResult
}

func newRecordingStore(s exporttask.Store) *recordingStore {
	return &recordingStore{Store: s, results: map[int64][]exporttask.DeliveryResult{}}
}

func (s *recordingStore) DeliveryDone(ctx context.Context, id int64, r exporttask.DeliveryResult) error {
	err := s.Store.DeliveryDone(ctx, id, r)
	if err == nil {
		s.mu.Lock()
		s.results[id] = append(s.results[id], r)
		s.mu.Unlock()
	}
	return err
}

func (s *recordingStore) outcomes(id int64) []exporttask.DeliveryResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]exporttask.DeliveryResult(nil), s.results[id]...)
}

// recorded counts the outcomes recorded for every delivery.
func (s *recordingStore) recorded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.results {
		n += len(r)
	}
	return n
}

// finalOutcomes waits for a final outcome of delivery id (delivered or given
// up) and returns every outcome recorded for it.
func (s *recordingStore) finalOutcomes(t *testing.T, id int64) []exporttask.DeliveryResult {
	t.Helper()
	require.Eventually(t, func() bool {
		o := s.outcomes(id)
		return len(o) > 0 && (o[len(o)-1].Delivered || o[len(o)-1].NextAttempt.IsZero())
	}, 5*time.Second, 2*time.Millisecond, "delivery %d never reached a final outcome", id)
	return s.outcomes(id)
}

// createTask stores a PENDING task with the simulator's estimate, whose
// webhook (when url is not empty) subscribes to events.
func createTask(t *testing.T, s exporttask.Store, customer string, d exporttask.Domain, url string, events ...exporttask.Event) exporttask.Task {
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
	est, err := exporttask.NewSimulator(exporttask.SimulatorConfig{}).Estimate(context.Background(), r)
	require.NoError(t, err)
	key, err := exporttask.DedupKey(r)
	require.NoError(t, err)
	task, replayed, err := s.Create(context.Background(), exporttask.CreateParams{
		Customer: customer, Request: r, EstimatedSize: est.Size, EstimatedTime: est.Time,
		DedupKey: key + "-" + url, Now: time.Now(),
	})
	require.NoError(t, err)
	require.False(t, replayed)
	return task
}

// waitStatus waits until the task reaches status.
func waitStatus(t *testing.T, s exporttask.Store, customer string, id int64, status exporttask.Status) exporttask.Task {
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

// background runs fn (a Run method) until the test cancels it; stop cancels
// and waits for fn to return, failing when it takes more than 5 seconds.
func background(t *testing.T, run func(context.Context) error) (stop func()) {
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

// fastRunner is a Runner with test-sized durations.
func fastRunner(t *testing.T, s exporttask.Store, e exporttask.Exporter, mod func(*exporttask.RunnerConfig)) *exporttask.Runner {
	cfg := exporttask.RunnerConfig{
		Store: s, Exporter: e, Workers: 2, Lease: time.Second, PollInterval: 5 * time.Millisecond,
		Retention: time.Hour, SweepInterval: 10 * time.Millisecond, Logger: quietLogger(t),
	}
	if mod != nil {
		mod(&cfg)
	}
	return exporttask.NewRunner(cfg)
}

// fastDeliverer is a Deliverer with test-sized durations that may reach
// loopback.
func fastDeliverer(t *testing.T, s exporttask.Store, mod func(*exporttask.DelivererConfig)) *exporttask.Deliverer {
	cfg := exporttask.DelivererConfig{
		Store: s, Secret: testSecret(), Allow: loopback(), Timeout: 2 * time.Second,
		BaseBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		PollInterval: 5 * time.Millisecond, Logger: quietLogger(t),
	}
	if mod != nil {
		mod(&cfg)
	}
	return exporttask.NewDeliverer(cfg)
}

// noLeftoverGoroutines checks, goleak-style, that no goroutine is left in
// the Runner's or Deliverer's code, or in an HTTP client connection of the
// Deliverer's transport.
func noLeftoverGoroutines(t *testing.T) {
	t.Helper()
	leftover := func() []string {
		buf := make([]byte, 1<<20)
		var out []string
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "exporttask.(*Runner)") || strings.Contains(g, "exporttask.(*Deliverer)") ||
				strings.Contains(g, "exporttask.(*taskRun)") || strings.Contains(g, "net/http.(*persistConn)") {
				out = append(out, g)
			}
		}
		return out
	}
	assert.Eventually(t, func() bool { return len(leftover()) == 0 }, 5*time.Second, 5*time.Millisecond,
		"goroutines left over:\n%s", strings.Join(leftover(), "\n\n"))
}
