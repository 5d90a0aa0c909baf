package exportserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestOpenStoreMaxRunning: the -max-running value reaches the store: with
// 1, a customer's second task waits while its first runs.
func TestOpenStoreMaxRunning(t *testing.T) {
	st, err := OpenStore(t.Context(), ":memory:", 1)
	require.NoError(t, err)
	defer st.Close()
	for _, id := range []string{"rec-1", "rec-2"} {
		r := exporttask.CreateRequest{CatalogRecordID: id, Domain: exporttask.DomainRaster, ArtifactCRS: exporttask.CRS4326}
		id, err := taskstore.Identify(r, "")
		require.NoError(t, err)
		_, _, err = st.Create(t.Context(), taskstore.CreateParams{Customer: "acme", Request: r, Identity: id, Now: time.Now()})
		require.NoError(t, err)
	}
	now := time.Now()
	_, ok, err := st.Claim(t.Context(), "w1", now, time.Minute)
	require.NoError(t, err)
	require.True(t, ok, "the first task is claimed")
	_, ok, err = st.Claim(t.Context(), "w2", now, time.Minute)
	require.NoError(t, err)
	assert.False(t, ok, "the second waits for the first")

	_, err = OpenStore(t.Context(), ":memory:", -1)
	assert.ErrorContains(t, err, "must not be negative")
}
