package s3test_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
)

func TestStartVersityFails(t *testing.T) {
	_, err := s3test.StartVersity(t.Context(), "/bin/false", t.TempDir())
	assert.ErrorContains(t, err, "exited before answering", "a gateway that exits is reported, not waited for")
}

func TestStartServesAndStops(t *testing.T) {
	srv := s3test.Start(t)
	a, b := srv.Config(t), srv.Config(t)
	assert.NotEqual(t, a.Prefix, b.Prefix, "each Config has its own prefix")
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.Endpoint+"/", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "the server answers")
	resp.Body.Close()
}
