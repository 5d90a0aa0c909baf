package server_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// failingExporter writes a file, then fails: permanently, or transiently
// on the attempts listed in transient.
type failingExporter struct {
	*simulate.Simulator
	permanent bool
	transient map[int]bool
}

func (f failingExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	if !f.permanent && !f.transient[t.Attempts] {
		return f.Simulator.Export(ctx, t, out)
	}
	w, err := out.Create(ctx, "partial.gpkg")
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	if _, err := w.Write([]byte("half a file")); err != nil {
		return nil, err
	}
	if _, err := w.Commit(); err != nil {
		return nil, err
	}
	if f.permanent {
		return nil, export.Permanent("the record's tiles cannot be read", errors.New("sqlite: database disk image is malformed"))
	}
	return nil, errors.New("source temporarily unreachable")
}

// waitFinal waits until task id is COMPLETED or FAILED.
func (h *harness) waitFinal(t *testing.T, id int64) exporttask.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done, err := h.client.Wait(ctx, id, 10*time.Millisecond)
	require.NoError(t, err)
	return done
}

func TestExportFailureOverHTTP(t *testing.T) {
	sim := simulate.New(simulate.Config{Duration: 10 * time.Millisecond})
	h := newHarness(t, exporttasktest.WithExporter(failingExporter{Simulator: sim, permanent: true}))
	task := h.create(t, h.sampleRequest(1))
	done := h.waitFinal(t, task.ID)
	assert.Equal(t, exporttask.StatusFailed, done.Status)
	assert.Equal(t, "the record's tiles cannot be read", done.ErrorReason, "the reason, without internals")
	assert.Equal(t, 1, done.Attempts, "a permanent failure is not retried")
	assert.Empty(t, done.Artifacts)
	left, err := h.Artifacts.List(context.Background(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	assert.Empty(t, left, "nothing of the failed export stays in the artifact store")
}

func TestExportRetryOverHTTP(t *testing.T) {
	sim := simulate.New(simulate.Config{Duration: 10 * time.Millisecond})
	h := newHarness(t, exporttasktest.WithExporter(failingExporter{Simulator: sim, transient: map[int]bool{1: true}}))
	task := h.create(t, h.sampleRequest(1))
	done := h.waitFinal(t, task.ID)
	require.Equal(t, exporttask.StatusCompleted, done.Status, "errorReason: %s", done.ErrorReason)
	assert.Equal(t, 2, done.Attempts)
	files, err := h.Artifacts.List(context.Background(), artifactkey.Prefix(task.ID))
	require.NoError(t, err)
	assert.Len(t, files, len(done.Artifacts), "the first attempt's partial file is gone")
}
