package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// versioned is a create of r by customer at now, as params makes it, with
// the identity of r over source data of the given version.
func versioned(t *testing.T, customer string, r exporttask.CreateRequest, version string, now time.Time) taskstore.CreateParams {
	t.Helper()
	p := params(t, customer, r, now)
	id, err := taskstore.Identify(r, version)
	require.NoError(t, err)
	p.Identity = id
	return p
}

// testIdempotencyKeyDataVersion checks that the version of the source's
// data is part of what an Idempotency-Key was recorded with: the same key
// and request over the same version replay the key's task; over another
// version (the catalog record registered again with other data) they are
// refused, with DataChanged set, and nothing is stored; the request
// without a key over the new version is a new task. A key recorded
// without a version replays for a retry without one and is refused for a
// retry with one. A key without a fingerprint is refused.
func testIdempotencyKeyDataVersion(t *testing.T, s taskstore.Store) {
	req := request("rec-1", hook(hookA, exporttask.EventUpdated))
	p := versioned(t, acme, req, "v1", at(0))
	p.IdempotencyKey = "key-1"
	first := create(t, s, p)

	p.Now = at(time.Minute)
	replay, replayed, err := s.Create(ctx(t), p)
	require.NoError(t, err)
	assert.True(t, replayed, "the same key, request and data replay")
	assert.Equal(t, first, replay)

	changed := versioned(t, acme, req, "v2", at(time.Minute))
	changed.IdempotencyKey = "key-1"
	_, _, err = s.Create(ctx(t), changed)
	var ke *taskstore.IdempotencyKeyReusedError
	require.ErrorAs(t, err, &ke, "the same key and request over other data")
	assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "key-1", TaskID: first.ID, DataChanged: true}, *ke)

	other := versioned(t, acme, request("rec-2"), "v2", at(time.Minute))
	other.IdempotencyKey = "key-1"
	_, _, err = s.Create(ctx(t), other)
	require.ErrorAs(t, err, &ke, "another request over other data")
	assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "key-1", TaskID: first.ID}, *ke, "a changed body is not a data change")

	list, _, err := s.List(ctx(t), taskstore.ListParams{Customer: acme, Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 1, "a refused key stores nothing")

	// The store takes the identity it is given, and needs the
	// fingerprint to record a key with.
	unidentified := changed
	unidentified.IdempotencyKey, unidentified.Identity = "key-2", taskstore.Identity{}
	_, _, err = s.Create(ctx(t), unidentified)
	require.Error(t, err, "a key without a fingerprint")

	changed.IdempotencyKey = ""
	fresh := create(t, s, changed)
	assert.NotEqual(t, first.ID, fresh.ID, "the same request over other data is a new task")

	// A key recorded without a version (before versions were part of the
	// fingerprint, or from an exporter that knows none).
	old := versioned(t, globex, req, "", at(0))
	old.IdempotencyKey = "key-old"
	oldTask := create(t, s, old)
	replay, replayed, err = s.Create(ctx(t), old)
	require.NoError(t, err)
	assert.True(t, replayed, "a key without a version replays a retry without one")
	assert.Equal(t, oldTask.ID, replay.ID)
	now := versioned(t, globex, req, "v1", at(time.Minute))
	now.IdempotencyKey = "key-old"
	_, _, err = s.Create(ctx(t), now)
	require.ErrorAs(t, err, &ke, "a key without a version is not replayed for data with one")
	assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "key-old", TaskID: oldTask.ID, DataChanged: true}, *ke)
}
