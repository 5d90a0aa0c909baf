package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testIdempotencyKeyFinder checks TaskByIdempotencyKey: the task a key named at
// Create, per customer, for the request it was recorded with; an
// *IdempotencyKeyReusedError for another request; ErrNotFound for an
// unknown key.
func testIdempotencyKeyFinder(t *testing.T, s taskstore.Store) {
	f := s
	p := params(t, acme, request("rec-1", hook(hookA, exporttask.EventUpdated)), at(0))
	p.IdempotencyKey = "key-1"
	first := create(t, s, p)

	got, err := f.TaskByIdempotencyKey(ctx(t), acme, "key-1", p.Request)
	require.NoError(t, err)
	assert.Equal(t, first, got)
	_, err = f.TaskByIdempotencyKey(ctx(t), acme, "key-1", request("rec-2"))
	var ke *taskstore.IdempotencyKeyReusedError
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, first.ID, ke.TaskID)

	// A key sent with a duplicate names the duplicate.
	d := params(t, acme, request("rec-1"), at(time.Minute))
	d.IdempotencyKey = "key-2"
	_, replayed, err := s.Create(ctx(t), d)
	require.NoError(t, err)
	require.True(t, replayed)
	got, err = f.TaskByIdempotencyKey(ctx(t), acme, "key-2", d.Request)
	require.NoError(t, err)
	assert.Equal(t, first.ID, got.ID)

	for _, tc := range []struct{ customer, key string }{
		{acme, "key-3"},   // never used
		{globex, "key-1"}, // another customer's
	} {
		_, err := f.TaskByIdempotencyKey(ctx(t), tc.customer, tc.key, p.Request)
		assert.True(t, errors.Is(err, taskstore.ErrNotFound), "%s %s: %v", tc.customer, tc.key, err)
	}
}
