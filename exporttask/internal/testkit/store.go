package testkit

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Customer is the customer of the tasks the lifecycle tests create.
const Customer = "acme"

// OpenStore opens a fresh in-memory SQLite store, closed when t ends.
func OpenStore(t testing.TB) taskstore.Store {
	t.Helper()
	db, err := sqlite.Open(context.Background(), sqlite.Memory)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })
	return db
}

// SignalStore wraps a store and signals, without blocking, each time a
// worker claims (Claim) or a deliverer claims webhook deliveries
// (ClaimDeliveries): a test waits on these channels to know that a Run
// loop has started, instead of sleeping.
type SignalStore struct {
	taskstore.Store
	Claimed           chan struct{}
	ClaimedDeliveries chan struct{}
}

// NewSignalStore wraps s.
func NewSignalStore(s taskstore.Store) *SignalStore {
	return &SignalStore{Store: s, Claimed: make(chan struct{}, 1), ClaimedDeliveries: make(chan struct{}, 1)}
}

// Claim signals on Claimed, then claims from the wrapped store.
func (s *SignalStore) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (exporttask.Task, bool, error) {
	notify(s.Claimed)
	return s.Store.Claim(ctx, worker, now, lease)
}

// ClaimSmall signals on Claimed, then claims a small task from the
// wrapped store.
func (s *SignalStore) ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (exporttask.Task, bool, error) {
	notify(s.Claimed)
	return s.Store.ClaimSmall(ctx, worker, now, lease, maxTime)
}

// ClaimDeliveries signals on ClaimedDeliveries, then claims from the
// wrapped store.
func (s *SignalStore) ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) ([]taskstore.Delivery, error) {
	notify(s.ClaimedDeliveries)
	return s.Store.ClaimDeliveries(ctx, c)
}

func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Receive returns the next value of ch, failing t after 5 seconds
// without one; what names the awaited event in the failure.
func Receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		require.FailNow(t, "timed out waiting for "+what)
	}
	var zero T
	return zero
}
