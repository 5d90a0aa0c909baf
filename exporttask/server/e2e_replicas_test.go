package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// replicaKey is the API key both replicas accept.
const replicaKey = "replica-test-key"

// replica is one running example server and a client of it.
type replica struct {
	*process
	api *client.Client
}

// get downloads path from r with the API key and the extra headers.
func (r replica) get(t *testing.T, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, r.url+path, nil)
	require.NoError(t, err)
	req.Header.Set("X-Api-Key", replicaKey)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// TestReplicasShareS3 runs two example servers, as a deployment runs its
// replicas, on one PostgreSQL database and one S3 bucket (the commands of
// docs/exporttask.md's "Running several replicas"): a RASTER export of the demo
// catalog created on the first is downloaded, whole and by Range, from
// both with the same bytes, so the replica that did not run it serves it
// from the bucket; once its retention is over both answer 410 and the
// bucket holds no object and no upload of the task.
func TestReplicasShareS3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two example servers")
	}
	dsn := postgresSchema(t)
	s3srv := s3test.Start(t)
	s3cfg := s3srv.Config(t)
	bucket, err := s3store.New(s3cfg)
	require.NoError(t, err)

	dir := t.TempDir()
	bin := buildExampleServer(t, dir)
	// One prepared catalog for both: neither process writes the demo
	// records while the other reads them.
	catalogDir := filepath.Join(dir, "catalog")
	_, err = demo.Write(catalogDir)
	require.NoError(t, err)

	const retention = 20 * time.Second
	args := []string{"-addr", "127.0.0.1:0", "-db", dsn, "-keys", replicaKey + "=acme:read+write",
		"-catalog", catalogDir, "-artifacts", "s3://" + s3cfg.Bucket + "/" + s3cfg.Prefix,
		"-retention", retention.String(), "-sweep-interval", "200ms", "-webhook-allow", "127.0.0.0/8"}
	env := []string{"AWS_ENDPOINT_URL=" + s3cfg.Endpoint, "AWS_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=" + s3cfg.AccessKeyID, "AWS_SECRET_ACCESS_KEY=" + s3cfg.SecretAccessKey,
		"AWS_ENDPOINT_URL_S3=", "AWS_SESSION_TOKEN="}
	rc := newHookReceiver()
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	var replicas []replica
	for i := range 2 {
		// Each replica its own -instance: a starting process takes back
		// the leases of its own earlier runs at once.
		p := startServerEnv(t, bin, dir, append(args, "-instance", fmt.Sprintf("replica-%d", i)), env)
		api, err := client.New(p.url, replicaKey)
		require.NoError(t, err)
		replicas = append(replicas, replica{process: p, api: api})
	}

	task, err := replicas[0].api.Create(t.Context(), exporttask.CreateRequest{
		CatalogRecordID: demo.RasterID, Domain: exporttask.DomainRaster, ArtifactCRS: exporttask.CRS4326,
		ROI: roiBox(34.78, 31.25, 34.82, 31.29), Webhook: []exporttask.Webhook{{URL: hook.URL + "/replicas", Events: []exporttask.Event{exporttask.EventCompleted}}},
	})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	done, err := replicas[1].api.Wait(ctx, task.ID, 50*time.Millisecond)
	require.NoError(t, err, "stderr 0: %s\nstderr 1: %s", replicas[0].stderr(), replicas[1].stderr())
	require.Equal(t, exporttask.StatusCompleted, done.Status, "errorReason: %s", done.ErrorReason)
	require.NotEmpty(t, done.Artifacts)
	got := rc.waitFor(t, 30*time.Second, exporttask.EventCompleted)
	assert.Equal(t, task.ID, got[0].payload.Data.ID, "the TASK_COMPLETED webhook")

	objects, err := bucket.List(t.Context(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	assert.Len(t, objects, len(done.Artifacts), "each artifact is one object in the bucket")

	paths := make([]string, len(done.Artifacts))
	for i, a := range done.Artifacts {
		paths[i] = "/export-tasks/" + strconv.FormatInt(task.ID, 10) + "/artifacts/" + url.PathEscape(a.Name)
		var whole [2][]byte
		for n, r := range replicas {
			resp, body := r.get(t, paths[i], nil)
			require.Equal(t, http.StatusOK, resp.StatusCode, "replica %d, %s: %s", n, a.Name, body)
			assert.Equal(t, a.Size, int64(len(body)), "replica %d, %s", n, a.Name)
			assert.Equal(t, `"`+a.SHA256+`"`, resp.Header.Get("ETag"), "replica %d, %s", n, a.Name)
			whole[n] = body
		}
		assert.Equal(t, whole[0], whole[1], "%s: both replicas serve the same bytes", a.Name)
		require.Greater(t, len(whole[0]), 20, a.Name)
		for n, r := range replicas {
			resp, part := r.get(t, paths[i], map[string]string{"Range": "bytes=10-19"})
			require.Equal(t, http.StatusPartialContent, resp.StatusCode, "replica %d, %s: %s", n, a.Name, part)
			assert.Equal(t, fmt.Sprintf("bytes 10-19/%d", a.Size), resp.Header.Get("Content-Range"))
			assert.Equal(t, whole[0][10:20], part, "replica %d, %s: the range", n, a.Name)
		}
	}

	// After the retention both replicas answer 410 and the bucket is empty
	// of the task.
	require.Eventually(t, func() bool {
		got, err := replicas[0].api.Get(t.Context(), task.ID)
		return err == nil && got.Status == exporttask.StatusExpired
	}, retention+time.Minute, 100*time.Millisecond, "the task never expired")
	for n, r := range replicas {
		for _, path := range paths {
			resp, body := r.get(t, path, nil)
			assert.Equal(t, http.StatusGone, resp.StatusCode, "replica %d, %s: %s", n, path, body)
		}
	}
	require.Eventually(t, func() bool {
		left, err := bucket.List(t.Context(), artifactkey.Prefix(task.ID))
		return err == nil && len(left) == 0
	}, 30*time.Second, 100*time.Millisecond, "the task's objects are deleted")
	uploads, err := bucket.Uploads(t.Context(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	assert.Empty(t, uploads, "no multipart upload of the task is left")
}
