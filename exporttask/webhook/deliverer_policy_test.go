package webhook_test

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

// TestDeliveryOutcomeByStatus: what one answer of the receiver does to a
// delivery, for each class of HTTP status, as the Deliverer's doc says:
// 2xx delivered; 404, 408, 409, 425, 429 and 5xx retried; 3xx (never
// followed) and every other 4xx given up at once.
func TestDeliveryOutcomeByStatus(t *testing.T) {
	const (
		delivered = "delivered"
		retried   = "retried"
		givenUp   = "given up"
	)
	for _, tc := range []struct {
		code int
		want string
	}{
		{200, delivered}, {201, delivered}, {202, delivered}, {204, delivered},
		{301, givenUp}, {302, givenUp}, {303, givenUp}, {307, givenUp}, {308, givenUp},
		{400, givenUp}, {401, givenUp}, {403, givenUp}, {405, givenUp}, {410, givenUp},
		{413, givenUp}, {415, givenUp}, {422, givenUp}, {451, givenUp},
		{404, retried}, {408, retried}, {409, retried}, {425, retried}, {429, retried},
		{500, retried}, {502, retried}, {503, retried}, {504, retried}, {599, retried},
	} {
		t.Run(strconv.Itoa(tc.code)+" "+tc.want, func(t *testing.T) {
			rec := testkit.NewRecordingStore(testkit.OpenStore(t))
			rcv := testkit.NewReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
				if tc.code >= 300 && tc.code < 400 {
					// Back to the receiver itself: following it would show
					// as a second request.
					w.Header().Set("Location", "/followed")
				}
				w.WriteHeader(tc.code)
			})
			id := startedDelivery(t, rec, rcv.URL)
			testkit.Background(t, testkit.FastDeliverer(t, rec, func(c *webhook.DelivererConfig) { c.MaxAttempts = 2 }).Run)

			out := rec.FinalOutcomes(t, id)
			require.NotEmpty(t, out)
			first := out[0]
			switch tc.want {
			case delivered:
				assert.True(t, first.Delivered)
				assert.Len(t, out, 1)
			case retried:
				assert.False(t, first.Delivered)
				assert.False(t, first.NextAttempt.IsZero(), "a next attempt is planned")
				assert.Len(t, out, 2, "tried again, up to MaxAttempts")
			case givenUp:
				assert.False(t, first.Delivered)
				assert.True(t, first.NextAttempt.IsZero(), "no next attempt")
				assert.Len(t, out, 1)
				assert.Len(t, rcv.Requests(), 1, "not retried, no redirect followed")
			}
			if !first.Delivered {
				assert.Equal(t, tc.code, first.StatusCode, "the result carries the status: %q", first.Error)
				assert.Equal(t, exporttask.DeliveryErrorHTTPStatus, first.Class)
			}
		})
	}
}

// TestDeliverySlowHostDoesNotDelayAnother: deliveries to a host whose
// receiver hangs take at most PerHost of the Deliverer's slots, so a
// delivery to another host arrives while they are still hanging.
func TestDeliverySlowHostDoesNotDelayAnother(t *testing.T) {
	const perHost = 2
	s := testkit.OpenStore(t)
	release := make(chan struct{})
	var releaseOnce sync.Once
	unblock := func() { releaseOnce.Do(func() { close(release) }) }
	entered := make(chan struct{}, 16)
	slow := testkit.NewReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(unblock) // before the receiver closes: cleanups run last first
	arrived := make(chan struct{}, 1)
	fast := testkit.NewReceiver(t, func(int, http.ResponseWriter, *http.Request) { arrived <- struct{}{} })

	// More hanging deliveries than the Deliverer has slots.
	const slowTasks = 6
	for i := range slowTasks {
		startedTask(t, s, slow.URL+"/hook/"+strconv.Itoa(i))
	}
	testkit.Background(t, testkit.FastDeliverer(t, s, func(c *webhook.DelivererConfig) {
		c.Concurrency, c.PerHost, c.Timeout = 4, perHost, time.Minute
	}).Run)
	for range perHost {
		testkit.Receive(t, entered, "an attempt at the slow host")
	}

	startedTask(t, s, fast.URL+"/hook")
	testkit.Receive(t, arrived, "the fast host's delivery")
	select {
	case <-release:
		t.Fatal("the slow host was released early")
	default:
	}
	assert.Len(t, slow.Requests(), perHost, "no more than PerHost attempts at the slow host at once")
	assert.Len(t, fast.Requests(), 1)
	unblock()
}

// startedTask creates a task whose webhook at url subscribes to
// TASK_STARTED and claims it, which writes that delivery to the outbox.
func startedTask(t *testing.T, s taskstore.Store, url string) {
	t.Helper()
	task := testkit.CreateTask(t, s, testkit.Customer, exporttask.DomainRaster, url, exporttask.EventStarted)
	claimed, ok, err := s.Claim(context.Background(), "test-worker", time.Now(), time.Hour)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, task.ID, claimed.ID)
}
