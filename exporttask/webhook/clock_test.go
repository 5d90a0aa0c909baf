package webhook_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

// pollingStore signals each claim that found nothing due once an outcome
// has been recorded: the Deliverer looked and had nothing to do.
type pollingStore struct {
	taskstore.Store
	outcomes atomic.Int32
	idle     chan struct{}
}

func (s *pollingStore) DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) error {
	err := s.Store.DeliveryDone(ctx, id, r)
	s.outcomes.Add(1)
	return err
}

func (s *pollingStore) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) ([]taskstore.Delivery, error) {
	ds, err := s.Store.ClaimDeliveries(ctx, c)
	if err == nil && len(ds) == 0 && s.outcomes.Load() > 0 {
		select {
		case s.idle <- struct{}{}:
		default:
		}
	}
	return ds, err
}

// TestDeliveryNotRetriedBeforeRetryAfter: on a Manual clock, a delivery
// answered 503 with Retry-After: 60 is not attempted again by a poll 59s
// later, and is at the poll 60s later. No test time passes meanwhile.
func TestDeliveryNotRetriedBeforeRetryAfter(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rec := testkit.NewRecordingStore(s)
		ps := &pollingStore{Store: rec, idle: make(chan struct{}, 1)}
		rcv := testkit.NewReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
			if n == 0 {
				w.Header().Set("Retry-After", "60")
				w.WriteHeader(http.StatusServiceUnavailable)
			}
		})
		id := startedDelivery(t, rec, rcv.URL)
		clk := clock.NewManual(time.Now())
		testkit.Background(t, testkit.FastDeliverer(t, ps, func(c *webhook.DelivererConfig) {
			c.Clock = clk
			c.MaxBackoff = time.Hour
		}).Run)

		// idle waits until the Deliverer found nothing due and armed its
		// poll timer: it waits for the clock.
		idle := func(what string) {
			t.Helper()
			testkit.Receive(t, ps.idle, what)
			require.NoError(t, clk.WaitTimers(t.Context(), 1))
		}
		idle("the first attempt to be recorded")
		require.Len(t, rcv.Requests(), 1)

		clk.Advance(59 * time.Second)
		idle("a poll 59s after the first attempt")
		assert.Len(t, rcv.Requests(), 1, "retried before Retry-After")

		clk.Advance(time.Second)
		out := rec.FinalOutcomes(t, id)
		require.Len(t, out, 2)
		assert.Equal(t, http.StatusServiceUnavailable, out[0].StatusCode)
		assert.True(t, out[1].Delivered)
		assert.Len(t, rcv.Requests(), 2)
	})
}
