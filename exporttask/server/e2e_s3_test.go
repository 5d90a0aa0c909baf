package server_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
)

// TestDownloadRedirectsToS3: with an S3 artifact store and redirects on, a
// download answers 302 to a presigned URL that serves the file.
func TestDownloadRedirectsToS3(t *testing.T) {
	srv := s3test.Start(t)
	store, err := s3store.New(srv.Config(t))
	require.NoError(t, err)
	h := newHarness(t, exporttasktest.WithTaskDuration(20*time.Millisecond),
		exporttasktest.WithArtifacts(store), exporttasktest.WithRedirectDownloads())
	task := h.completedTask(t, 1)
	a := task.Artifacts[0]

	noFollow := &http.Client{Transport: h.hc.Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, a.URL, nil)
	require.NoError(t, err)
	req.Header.Set("X-Api-Key", h.Key)
	resp, err := noFollow.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc := resp.Header.Get("Location")
	require.NotEmpty(t, loc)
	assert.Contains(t, loc, "X-Amz-Signature=", "a presigned URL")

	got, err := http.Get(loc) // no API key: the signature is the authorisation
	require.NoError(t, err)
	defer got.Body.Close()
	body, err := io.ReadAll(got.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode, "%s", body)
	assert.Equal(t, a.Size, int64(len(body)))
}
