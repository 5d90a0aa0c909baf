package server_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store"
	"github.com/openapi-viewer/viewer/exporttask/artifact/s3store/s3test"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// outageExporter writes one file of four multipart parts. On its first
// attempt it stops after two parts to let the test stop the S3
// server (it sends on midUpload and waits on resume), then reports the
// error the rest of the upload met on failed and waits on resume again,
// so the test can bring the server back before the attempt ends.
type outageExporter struct {
	*simulate.Simulator
	midUpload chan struct{}
	failed    chan error
	resume    chan struct{}
}

func (e outageExporter) wait(ctx context.Context) error {
	select {
	case <-e.resume:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e outageExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	w, err := out.Create(ctx, "data.bin")
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	part := bytes.Repeat([]byte{byte(t.Attempts)}, s3store.MinPartSize)
	for range 2 {
		if _, err := w.Write(part); err != nil {
			return nil, err
		}
	}
	if t.Attempts == 1 {
		e.midUpload <- struct{}{}
		if err := e.wait(ctx); err != nil {
			return nil, err
		}
	}
	var info artifact.Info
	for range 2 {
		if _, err = w.Write(part); err != nil {
			break
		}
	}
	if err == nil {
		info, err = w.Commit()
	}
	if t.Attempts == 1 {
		e.failed <- err
		if werr := e.wait(ctx); werr != nil {
			return nil, werr
		}
	}
	if err != nil {
		return nil, err
	}
	return []exporttask.Artifact{{Name: "data.bin", Type: exporttask.ArtifactGPKG, Size: info.Size, SHA256: info.SHA256}}, nil
}

// TestS3OutageDuringExport stops the S3 server in the middle of an
// export's multipart upload: the attempt fails, the task is retried (its
// attempt counter says 2) and completes once the server is back, and the
// bucket holds exactly the task's one file, with no multipart upload left
// of the failed attempt.
func TestS3OutageDuringExport(t *testing.T) {
	srv := s3test.StartGateway(t)
	store, err := s3store.New(srv.Config(t))
	require.NoError(t, err)
	exp := outageExporter{Simulator: simulate.New(simulate.Config{Duration: time.Millisecond}),
		midUpload: make(chan struct{}), failed: make(chan error), resume: make(chan struct{})}
	h := newHarness(t, exporttasktest.WithExporter(exp), exporttasktest.WithArtifacts(store),
		exporttasktest.WithRunnerConfig(func(c *worker.RunnerConfig) { c.RetryDelay = 20 * time.Millisecond }))
	task := h.create(t, h.sampleRequest(1))

	receive := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(30 * time.Second):
			t.Fatalf("the export never reached %s", what)
		}
	}
	receive("the middle of its upload", exp.midUpload)
	require.NoError(t, srv.Versity.Close(), "stopping the S3 server")
	exp.resume <- struct{}{}
	select {
	case err := <-exp.failed:
		require.Error(t, err, "the upload fails while the server is down")
		assert.Contains(t, err.Error(), "s3store", "the error says where")
	case <-time.After(time.Minute):
		t.Fatal("the upload neither failed nor finished with the server down")
	}
	uploads := func() []string {
		u, err := store.Uploads(t.Context(), artifactkey.Prefix(task.ID))
		require.NoError(t, err)
		return u
	}
	require.NoError(t, srv.Versity.Restart(t.Context()))
	assert.NotEmpty(t, uploads(), "the first attempt's upload could not be aborted during the outage")
	exp.resume <- struct{}{}

	done := h.waitFinal(t, task.ID)
	require.Equal(t, exporttask.StatusCompleted, done.Status, "errorReason: %s", done.ErrorReason)
	assert.Equal(t, 2, done.Attempts, "one retry")
	require.Len(t, done.Artifacts, 1)
	assert.Equal(t, int64(4*s3store.MinPartSize), done.Artifacts[0].Size)

	objects, err := store.List(t.Context(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	require.Len(t, objects, 1, "only the completed file is in the bucket")
	assert.Equal(t, artifactkey.Key(task.ID, "data.bin"), objects[0].Key)
	assert.Empty(t, uploads(), "no multipart upload is left")

	resp, body := h.do(t, request{method: http.MethodGet, path: h.pathOf(t, done.Artifacts[0]), key: h.Key})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, bytes.Repeat([]byte{2}, 4*s3store.MinPartSize), body, "the second attempt's bytes")
}

// TestS3OutageUntilFailed keeps the S3 server down through every attempt:
// the task ends FAILED after the maximum attempts with a reason a customer
// can read, which names neither the S3 endpoint nor the bucket, and the
// bucket holds no object of the task.
func TestS3OutageUntilFailed(t *testing.T) {
	srv := s3test.StartGateway(t)
	store, err := s3store.New(srv.Config(t))
	require.NoError(t, err)
	exp := outageExporter{Simulator: simulate.New(simulate.Config{Duration: time.Millisecond}),
		midUpload: make(chan struct{}), failed: make(chan error), resume: make(chan struct{})}
	h := newHarness(t, exporttasktest.WithExporter(exp), exporttasktest.WithArtifacts(store),
		exporttasktest.WithRunnerConfig(func(c *worker.RunnerConfig) { c.RetryDelay = 20 * time.Millisecond; c.MaxAttempts = 2 }))
	task := h.create(t, h.sampleRequest(1))

	select {
	case <-exp.midUpload:
	case <-time.After(30 * time.Second):
		t.Fatal("the export never reached the middle of its upload")
	}
	require.NoError(t, srv.Versity.Close(), "stopping the S3 server")
	exp.resume <- struct{}{}
	require.Error(t, <-exp.failed, "the upload fails while the server is down")
	exp.resume <- struct{}{}

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute) // each S3 call retries before it gives up
	defer cancel()
	done, err := h.client.Wait(ctx, task.ID, 20*time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, exporttask.StatusFailed, done.Status)
	assert.Equal(t, 2, done.Attempts)
	assert.Equal(t, "failed 2 times, last: the exported files could not be stored", done.ErrorReason)
	assert.NotContains(t, done.ErrorReason, srv.Endpoint)
	assert.Empty(t, done.Artifacts)

	require.NoError(t, srv.Versity.Restart(t.Context()))
	objects, err := store.List(t.Context(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	assert.Empty(t, objects, "no object of the failed task is in the bucket")
}
