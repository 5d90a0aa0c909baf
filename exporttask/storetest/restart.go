package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testReleaseLeases: a restarted instance ends its own earlier leases and
// claims those tasks at once; another instance's tasks, and one whose name
// merely begins like it, wait for their leases.
func testReleaseLeases(t *testing.T, s taskstore.Store) {
	// Created and claimed one at a time: each claim has one choice.
	own := create(t, s, params(t, acme, request("rec-1"), at(0)))
	require.Equal(t, own.ID, claim(t, s, "A/run1/1", at(0)).ID) // leased until 1m
	lookalike := create(t, s, params(t, acme, request("rec-2"), at(0)))
	require.Equal(t, lookalike.ID, claim(t, s, "AB/run1/1", at(0)).ID)
	other := create(t, s, params(t, globex, request("rec-3"), at(0)))
	require.Equal(t, other.ID, claim(t, s, "B/run1/1", at(0)).ID)
	pending := create(t, s, params(t, globex, request("rec-4"), at(0)))

	n, err := s.ReleaseLeases(ctx(t), "A/")
	require.NoError(t, err)
	assert.Equal(t, 1, n, "only instance A's IN_PROGRESS task")

	got := claim(t, s, "A/run2/1", at(time.Second))
	assert.Equal(t, own.ID, got.ID, "A's task is claimed again at once")
	assert.Equal(t, exporttask.StatusInProgress, got.Status)
	_, err = s.Progress(ctx(t), own.ID, "A/run1/1", 50, at(time.Second), time.Minute)
	assert.ErrorIs(t, err, exporttask.ErrLeaseLost, "the earlier run's worker lost its lease")

	assert.Equal(t, pending.ID, claim(t, s, "A/run2/2", at(time.Second)).ID)
	noClaim(t, s, at(59*time.Second)) // the others wait for their leases
	n, err = s.ReleaseLeases(ctx(t), "C/")
	require.NoError(t, err)
	assert.Zero(t, n)
	noClaim(t, s, at(59*time.Second))
	assert.Equal(t, lookalike.ID, claim(t, s, "A/run2/3", at(time.Minute+500*time.Millisecond)).ID, "after its lease")
}

// testPingWrites: Ping succeeds on a writable store, again and again.
func testPingWrites(t *testing.T, s taskstore.Store) {
	for range 3 {
		require.NoError(t, s.Ping(ctx(t)))
	}
	create(t, s, params(t, acme, request("rec-1"), at(0)))
	assert.NoError(t, s.Ping(ctx(t)), "a ping between writes")
}
