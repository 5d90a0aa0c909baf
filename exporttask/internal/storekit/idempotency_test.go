package storekit_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestCheckIdempotentRequestWithoutFingerprint: a key recorded before
// fingerprints were (an empty stored fingerprint) replays its task for
// the same export without a data version, and is refused as a data change
// for the same export with one, and as another request for another export.
func TestCheckIdempotentRequestWithoutFingerprint(t *testing.T) {
	r := exporttask.CreateRequest{CatalogRecordID: "rec-1", Domain: exporttask.DomainDEM, ArtifactCRS: exporttask.CRS4326}
	task := exporttask.Task{ID: 7, CreateRequest: r}
	plain, err := taskstore.Identify(r, "")
	require.NoError(t, err)
	assert.NoError(t, storekit.CheckIdempotentRequest("k", task, "", plain.Fingerprint, r))

	versioned, err := taskstore.Identify(r, "v1")
	require.NoError(t, err)
	err = storekit.CheckIdempotentRequest("k", task, "", versioned.Fingerprint, r)
	var ke *taskstore.IdempotencyKeyReusedError
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "k", TaskID: 7, DataChanged: true}, *ke)

	other := r
	other.CatalogRecordID = "rec-2"
	id, err := taskstore.Identify(other, "v1")
	require.NoError(t, err)
	err = storekit.CheckIdempotentRequest("k", task, "", id.Fingerprint, other)
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "k", TaskID: 7}, *ke)
}
