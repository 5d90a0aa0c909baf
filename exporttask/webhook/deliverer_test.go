package webhook_test

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

// startedDelivery creates a task whose webhook at url subscribes to
// TASK_STARTED and claims it, which writes that one delivery to the outbox.
// It returns the delivery's id as the testkit.Receiver will see it.
func startedDelivery(t *testing.T, s taskstore.Store, url string, more ...exporttask.Event) int64 {
	t.Helper()
	task := testkit.CreateTask(t, s, testkit.Customer, exporttask.DomainRaster, url, append([]exporttask.Event{exporttask.EventStarted}, more...)...)
	_, ok, err := s.Claim(context.Background(), "test-worker", time.Now(), time.Minute)
	require.NoError(t, err)
	require.True(t, ok)
	// A lease of one nanosecond: it has ended once the clock moved on, so
	// the deliverer may claim the delivery at once.
	now := time.Now()
	ds, err := s.ClaimDeliveries(context.Background(), taskstore.DeliveryClaim{Now: now, Limit: 10, Lease: time.Nanosecond})
	require.NoError(t, err)
	require.Len(t, ds, 1)
	require.Equal(t, task.ID, ds[0].TaskID)
	require.Equal(t, exporttask.EventStarted, ds[0].Event)
	for !time.Now().After(now.Add(time.Nanosecond)) {
	}
	return ds[0].ID
}

func status(code int) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

func TestDeliveryRetriesUntilAccepted(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		rcv := testkit.NewReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
			if n < 2 {
				w.WriteHeader(http.StatusServiceUnavailable)
			}
		})
		id := startedDelivery(t, rec, rcv.URL)
		testkit.Background(t, testkit.FastDeliverer(t, rec, nil).Run)

		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 3)
		for _, o := range out[:2] {
			assert.False(t, o.Delivered)
			assert.False(t, o.NextAttempt.IsZero(), "retried")
			assert.Contains(t, o.Error, "503")
			assert.Equal(t, http.StatusServiceUnavailable, o.StatusCode)
			assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, o.Class)
		}
		assert.True(t, out[2].Delivered)
		reqs := rcv.Requests()
		require.Len(t, reqs, 3)
		for _, r := range reqs {
			assert.Equal(t, strconv.FormatInt(id, 10), r.Delivery, "the same delivery id on every attempt")
			assert.NoError(t, r.VerifyErr)
		}
	})
}

func TestDeliveryHonoursRetryAfterWithinBounds(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		rcv := testkit.NewReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
			switch n {
			case 0:
				w.Header().Set("Retry-After", "3600") // bounded by MaxBackoff
				w.WriteHeader(http.StatusTooManyRequests)
			case 1:
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusBadGateway)
			}
		})
		id := startedDelivery(t, rec, rcv.URL)
		testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) {
			c.MaxBackoff = 150 * time.Millisecond
		}).Run)

		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 3)
		assert.True(t, out[2].Delivered)
		assert.Contains(t, out[0].Error, "429")
		assert.Contains(t, out[1].Error, "502")
		assert.Equal(t, []int{http.StatusTooManyRequests, http.StatusBadGateway, 0},
			[]int{out[0].StatusCode, out[1].StatusCode, out[2].StatusCode})
		assert.Empty(t, out[2].Class, "delivered")
		require.Len(t, rcv.Requests(), 3)
	})
}

func TestDeliveryGivesUp(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		t.Run("on 4xx at once", func(t *testing.T) {
			rec := testkit.NewRecordingStore(s)
			rcv := testkit.NewReceiver(t, status(http.StatusGone))
			id := startedDelivery(t, rec, rcv.URL)
			testkit.Background(t, testkit.FastDeliverer(t, rec, nil).Run)
			out := rec.FinalOutcomes(t, id)
			require.Len(t, out, 1)
			assert.True(t, out[0].NextAttempt.IsZero())
			assert.Contains(t, out[0].Error, "410")
			assert.Equal(t, http.StatusGone, out[0].StatusCode)
			assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, out[0].Class)
		})
		t.Run("after MaxAttempts", func(t *testing.T) {
			rec := testkit.NewRecordingStore(s)
			rcv := testkit.NewReceiver(t, status(http.StatusInternalServerError))
			id := startedDelivery(t, rec, rcv.URL)
			stop := testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.MaxAttempts = 3 }).Run)
			out := rec.FinalOutcomes(t, id)
			require.Len(t, out, 3)
			assert.True(t, out[2].NextAttempt.IsZero())
			assert.Contains(t, out[2].Error, "gave up after 3 attempts")
			assert.Equal(t, http.StatusInternalServerError, out[2].StatusCode)
			assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, out[2].Class)
			testkit.WaitDeliveriesSettled(t, rec)
			stop()
			assert.Len(t, rcv.Requests(), 3, "no attempt after giving up")
		})
		t.Run("on a network error after MaxAttempts", func(t *testing.T) {
			rec := testkit.NewRecordingStore(s)
			dead := httptest.NewServer(http.NotFoundHandler())
			url := dead.URL
			dead.Close() // connection refused from now on
			id := startedDelivery(t, rec, url)
			testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.MaxAttempts = 2 }).Run)
			out := rec.FinalOutcomes(t, id)
			require.Len(t, out, 2)
			assert.False(t, out[0].NextAttempt.IsZero(), "a network error is retried")
			assert.Contains(t, out[1].Error, "refused")
			assert.Zero(t, out[1].StatusCode, "no answer")
			assert.Equal(t, exporttask.DeliveryErrorConnection, out[1].Class)
		})
	})
}

// TestDeliveryGivenUpUnblocksTheNext: deliveries of one task reach a
// testkit.Receiver in order, and a delivery given up no longer holds back the next.
func TestDeliveryGivenUpUnblocksTheNext(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rcv := testkit.NewReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Export-Event") == string(exporttask.EventStarted) {
				w.WriteHeader(http.StatusBadRequest)
			}
		})
		task := testkit.CreateTask(t, s, testkit.Customer, exporttask.DomainRaster, rcv.URL, exporttask.EventStarted, exporttask.EventInProgress)
		_, ok, err := s.Claim(context.Background(), "w", time.Now(), time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		for _, p := range []int{10, 20, 30} {
			_, err = s.Progress(context.Background(), task.ID, "w", p, time.Now(), time.Minute)
			require.NoError(t, err)
		}
		testkit.Background(t, testkit.FastDeliverer(t, s, func(c *webhook.DelivererConfig) { c.Concurrency = 8 }).Run)
		require.Eventually(t, func() bool { return len(rcv.Requests()) == 4 }, 5*time.Second, 2*time.Millisecond)
		var progress []int
		for _, r := range rcv.Requests() {
			progress = append(progress, r.Payload.Data.Progress)
		}
		assert.Equal(t, []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress,
			exporttask.EventInProgress, exporttask.EventInProgress}, rcv.Events())
		assert.Equal(t, []int{0, 10, 20, 30}, progress, "in order, even with 8 concurrent attempts")
	})
}

func TestDeliveryDoesNotFollowRedirects(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		var targetHits atomic.Int32
		target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { targetHits.Add(1) }))
		defer target.Close()
		rec := testkit.NewRecordingStore(s)
		rcv := testkit.NewReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/internal", http.StatusTemporaryRedirect)
		})
		id := startedDelivery(t, rec, rcv.URL)
		testkit.Background(t, testkit.FastDeliverer(t, rec, nil).Run)

		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 1, "a redirect is not retried")
		assert.True(t, out[0].NextAttempt.IsZero())
		assert.Contains(t, out[0].Error, "307")
		assert.Contains(t, out[0].Error, "not followed")
		assert.Equal(t, http.StatusTemporaryRedirect, out[0].StatusCode)
		assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, out[0].Class)
		assert.Len(t, rcv.Requests(), 1)
		assert.Zero(t, targetHits.Load(), "the redirect target was never requested")
	})
}

func TestDeliveryRefusesLoopbackWithoutAllow(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		rcv := testkit.NewReceiver(t, nil)
		id := startedDelivery(t, rec, rcv.URL) // http://127.0.0.1:port
		testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.Allow = nil }).Run)

		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 1, "refused at once, not retried")
		assert.True(t, out[0].NextAttempt.IsZero())
		assert.Contains(t, out[0].Error, "loopback")
		assert.Zero(t, out[0].StatusCode)
		assert.Equal(t, exporttask.DeliveryErrorAddressNotAllowed, out[0].Class)
		assert.Empty(t, rcv.Requests())
	})
}

// TestDeliveryAttemptTimeout: a testkit.Receiver slower than Timeout counts as a
// failed attempt and is retried.
func TestDeliveryAttemptTimeout(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		rcv := testkit.NewReceiver(t, func(n int, _ http.ResponseWriter, r *http.Request) {
			if n == 0 {
				select {
				case <-r.Context().Done():
				case <-time.After(2 * time.Second):
				}
			}
		})
		id := startedDelivery(t, rec, rcv.URL)
		testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.Timeout = 150 * time.Millisecond }).Run)
		out := rec.FinalOutcomes(t, id)
		// Two attempts; more only if a loaded machine makes a quick answer
		// miss the deadline too.
		require.GreaterOrEqual(t, len(out), 2)
		assert.Contains(t, out[0].Error, "deadline exceeded")
		assert.Zero(t, out[0].StatusCode)
		assert.Equal(t, exporttask.DeliveryErrorTimeout, out[0].Class)
		assert.False(t, out[0].NextAttempt.IsZero())
		assert.True(t, out[len(out)-1].Delivered)
	})
}

// TestDeliveryTLSFailure: a receiver whose certificate the Deliverer does
// not trust fails the attempt with the class TLS, and it is retried.
func TestDeliveryTLSFailure(t *testing.T) {
	rec := testkit.NewRecordingStore(testkit.OpenStore(t))
	var hits atomic.Int32
	rcv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	rcv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	rcv.StartTLS()
	defer rcv.Close()
	id := startedDelivery(t, rec, rcv.URL)
	testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.MaxAttempts = 2 }).Run)

	out := rec.FinalOutcomes(t, id)
	require.Len(t, out, 2)
	assert.False(t, out[0].NextAttempt.IsZero(), "retried")
	for _, o := range out {
		assert.Zero(t, o.StatusCode, "no answer")
		assert.Equal(t, exporttask.DeliveryErrorTLS, o.Class, "%s", o.Error)
	}
	assert.Zero(t, hits.Load(), "no request got through")
}

func TestDeliveryCustomClientAndUserAgent(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		rcv := testkit.NewReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		})
		id := startedDelivery(t, rec, rcv.URL)
		client := &http.Client{}
		testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) {
			c.HTTPClient = client
			c.UserAgent = "acme-hooks/2"
		}).Run)
		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 1)
		assert.Contains(t, out[0].Error, "not followed", "redirects stay off with a custom client")
		assert.Nil(t, client.CheckRedirect, "the caller's client is not modified")
		reqs := rcv.Requests()
		require.Len(t, reqs, 1)
		assert.Equal(t, "acme-hooks/2", reqs[0].UserAgent)
	})
}

func TestDelivererShutdownLeavesInterruptedAttemptUnrecorded(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		entered := make(chan struct{}, 1)
		var hang atomic.Bool
		hang.Store(true)
		rcv := testkit.NewReceiver(t, func(_ int, _ http.ResponseWriter, r *http.Request) {
			if hang.Load() {
				entered <- struct{}{}
				<-r.Context().Done() // hang until the client gives up
			}
		})
		id := startedDelivery(t, rec, rcv.URL)
		const lease = 200 * time.Millisecond
		stop := testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.Lease = lease }).Run)
		testkit.Receive(t, entered, "the attempt to start")
		start := time.Now()
		stop()
		assert.Less(t, time.Since(start), time.Second, "shutdown does not wait for the receiver")
		assert.Empty(t, rec.Outcomes(id), "an attempt cut short by shutdown is not recorded")
		// The next Deliverer sends it again, once the lease ends.
		hang.Store(false)
		testkit.Background(t, testkit.FastDeliverer(t, rec, nil).Run)
		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 1)
		assert.True(t, out[0].Delivered)
		assert.Len(t, rcv.Requests(), 2)
	})
}

func TestNewDelivererNeedsStoreAndSecret(t *testing.T) {
	_, err := webhook.NewDeliverer(webhook.DelivererConfig{Secret: []byte("x")})
	assert.EqualError(t, err, "webhook: DelivererConfig.Store is required")
	_, err = webhook.NewDeliverer(webhook.DelivererConfig{Store: testkit.OpenStore(t)})
	assert.EqualError(t, err, "webhook: DelivererConfig.Secret is required to sign webhooks")
	d, err := webhook.NewDeliverer(webhook.DelivererConfig{Store: testkit.OpenStore(t), Secret: []byte("x")})
	assert.NoError(t, err)
	assert.NotNil(t, d)
}

func TestDelivererRunTwice(t *testing.T) {
	st := testkit.NewSignalStore(testkit.OpenStore(t))
	d := testkit.FastDeliverer(t, st, nil)
	stop := testkit.Background(t, d.Run)
	testkit.Receive(t, st.ClaimedDeliveries, "the deliverer to look for deliveries") // Run has started
	assert.ErrorIs(t, d.Run(context.Background()), webhook.ErrRunning)
	stop()
	assert.True(t, strings.HasPrefix(webhook.ErrRunning.Error(), "webhook: "))
}
