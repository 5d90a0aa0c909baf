package s3store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
)

// TestOutage stops the gateway in the middle of an upload: the write fails
// with an error, nothing is stored, and once the server is back the upload
// that could not be aborted meanwhile is found and removed by
// DeletePrefix, the clean-up a task's expiry or retry runs.
func TestOutage(t *testing.T) {
	srv := s3test.StartGateway(t)
	s, err := s3store.New(srv.Config(t))
	require.NoError(t, err)

	w, err := s.Create(t.Context(), "9/export.tif")
	require.NoError(t, err)
	part := make([]byte, s3store.MinPartSize)
	for range 2 {
		_, err = w.Write(part)
		require.NoError(t, err, "before the outage")
	}

	require.NoError(t, srv.Versity.Close())
	for range 3 {
		if _, err = w.Write(part); err != nil {
			break
		}
	}
	if err == nil {
		_, err = w.Commit()
	}
	require.Error(t, err, "the write fails while the server is down")
	t.Logf("error during the outage: %v", err)
	assert.Contains(t, err.Error(), `s3store: `, "the error says where: %v", err)
	_ = w.Abort() // fails while the server is down (or Commit tried already)

	require.NoError(t, srv.Versity.Restart(t.Context()))
	uploads, err := s.Uploads(t.Context(), "9/")
	require.NoError(t, err)
	assert.Len(t, uploads, 1, "the orphan upload survives the outage")
	_, err = s.Open(t.Context(), "9/export.tif")
	assert.ErrorIs(t, err, artifact.ErrNotFound, "no object was stored")

	require.NoError(t, s.DeletePrefix(t.Context(), "9/"))
	uploads, err = s.Uploads(t.Context(), "9/")
	require.NoError(t, err)
	assert.Empty(t, uploads, "DeletePrefix removes the orphan upload")
	infos, err := s.List(t.Context(), "")
	require.NoError(t, err)
	assert.Empty(t, infos)
}
