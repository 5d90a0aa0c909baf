package taskstore_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestIdentify: without a version, the identity is the dedup key and the
// request's fingerprint as they were before versions (so keys and tasks
// stored then keep matching); a version changes both, and another version
// changes them again; a changed body and changed data are told apart.
func TestIdentify(t *testing.T) {
	r := exporttask.CreateRequest{CatalogRecordID: "rec-1", Domain: exporttask.DomainDEM, ArtifactCRS: exporttask.CRS4326,
		Description: "one", Parameters: map[string]any{"k": 1}}
	dedup, err := taskstore.DedupKey(r)
	require.NoError(t, err)
	fp, err := taskstore.RequestFingerprint(r)
	require.NoError(t, err)

	plain, err := taskstore.Identify(r, "")
	require.NoError(t, err)
	assert.Equal(t, taskstore.Identity{Dedup: dedup, Fingerprint: fp}, plain)

	v1, err := taskstore.Identify(r, "v1")
	require.NoError(t, err)
	v2, err := taskstore.Identify(r, "v2")
	require.NoError(t, err)
	for _, id := range []taskstore.Identity{v1, v2} {
		assert.NotEqual(t, plain.Dedup, id.Dedup)
		assert.NotEqual(t, plain.Fingerprint, id.Fingerprint)
	}
	assert.NotEqual(t, v1.Dedup, v2.Dedup)
	assert.NotEqual(t, v1.Fingerprint, v2.Fingerprint)
	again, err := taskstore.Identify(r, "v1")
	require.NoError(t, err)
	assert.Equal(t, v1, again, "the same request over the same data")

	described := r
	described.Description = "two"
	d1, err := taskstore.Identify(described, "v1")
	require.NoError(t, err)
	assert.Equal(t, v1.Dedup, d1.Dedup, "the description is not part of the export")
	assert.NotEqual(t, v1.Fingerprint, d1.Fingerprint, "but it is part of the request")

	assert.True(t, taskstore.SameRequestOtherData(v1.Fingerprint, v2.Fingerprint))
	assert.True(t, taskstore.SameRequestOtherData(plain.Fingerprint, v1.Fingerprint), "a key recorded without a version")
	assert.True(t, taskstore.SameRequestOtherData(v1.Fingerprint, plain.Fingerprint))
	assert.False(t, taskstore.SameRequestOtherData(v1.Fingerprint, v1.Fingerprint), "equal fingerprints are no change")
	assert.False(t, taskstore.SameRequestOtherData(v1.Fingerprint, d1.Fingerprint), "another body")
	d2, err := taskstore.Identify(described, "v2")
	require.NoError(t, err)
	assert.False(t, taskstore.SameRequestOtherData(v1.Fingerprint, d2.Fingerprint), "another body over other data")
}
