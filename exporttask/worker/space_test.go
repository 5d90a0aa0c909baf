package worker_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// countingExporter counts its exports and fails each with err.
type countingExporter struct {
	calls atomic.Int32
	err   error
}

func (c *countingExporter) Estimate(context.Context, exporttask.CreateRequest) (export.Estimate, error) {
	return export.Estimate{Size: 1, Time: 1}, nil
}

func (c *countingExporter) Export(context.Context, exporttask.Task, export.Output) ([]exporttask.Artifact, error) {
	c.calls.Add(1)
	return nil, c.err
}

// createOfSize stores a task estimated at size bytes and secs seconds.
func createOfSize(t *testing.T, s taskstore.Store, size, secs int64) exporttask.Task {
	t.Helper()
	p := testkit.CreateParams(customer, fmt.Sprintf("rec-size-%d-%d", size, time.Now().UnixNano()))
	p.EstimatedSize, p.EstimatedTime, p.Now = size, secs, time.Now()
	task, _, err := s.Create(context.Background(), p)
	require.NoError(t, err)
	return task
}

// TestExportThatDoesNotFitFailsBeforeItStarts: with 5 MB free where the
// export's files go, a task estimated at 10 MB is FAILED at once, without
// running the export, with a reason that says the disk is full; one of
// 1 MB runs.
func TestExportThatDoesNotFitFailsBeforeItStarts(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		exp := &countingExporter{}
		var asked atomic.Value
		dir := t.TempDir()
		big := createOfSize(t, s, 10_000_000, 1)
		testkit.Background(t, testkit.FastRunner(t, s, exp, func(c *worker.RunnerConfig) {
			c.SpaceDirs = []string{dir}
			c.FreeSpace = func(d string) (uint64, error) { asked.Store(d); return 5_000_000, nil }
		}).Run)
		got := testkit.WaitStatus(t, s, customer, big.ID, exporttask.StatusFailed)
		assert.Contains(t, got.ErrorReason, "the disk is full")
		assert.Contains(t, got.ErrorReason, "11.0 MB")
		assert.NotContains(t, got.ErrorReason, dir, "no server path in the reason")
		assert.Equal(t, int32(0), exp.calls.Load(), "the export never ran")
		assert.Equal(t, 1, got.Attempts)
		assert.Equal(t, dir, asked.Load())

		small := createOfSize(t, s, 1_000_000, 1)
		testkit.WaitStatus(t, s, customer, small.ID, exporttask.StatusCompleted)
		assert.Equal(t, int32(1), exp.calls.Load())
	})
}

// TestSpaceOfRunningExportsIsReserved: the space a running export is
// estimated to fill counts against the next one's check.
func TestSpaceOfRunningExportsIsReserved(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		g := newGate()
		defer close(g.release)
		first := createOfSize(t, s, 10_000_000, 3600) // held by the gate
		testkit.Background(t, testkit.FastRunner(t, s, g, func(c *worker.RunnerConfig) {
			c.SmallWorkers = -1
			c.SpaceDirs = []string{t.TempDir()}
			c.FreeSpace = func(string) (uint64, error) { return 15_000_000, nil }
		}).Run)
		assert.Equal(t, first.ID, testkit.Receive(t, g.started, "the first export").ID)
		second := createOfSize(t, s, 10_000_000, 1)
		got := testkit.WaitStatus(t, s, customer, second.ID, exporttask.StatusFailed)
		assert.Contains(t, got.ErrorReason, "the disk is full")
	})
}

// TestFullDiskFailsOnce: an export that runs out of disk space (ENOSPC)
// is not tried again: the task is FAILED after one attempt, with a reason
// that says the disk is full.
func TestFullDiskFailsOnce(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		exp := &countingExporter{err: fmt.Errorf("raster: writing the GeoPackage: %w",
			&os.PathError{Op: "write", Path: "/srv/scratch/x.gpkg", Err: syscall.ENOSPC})}
		task := createOfSize(t, s, 1000, 1)
		testkit.Background(t, testkit.FastRunner(t, s, exp, func(c *worker.RunnerConfig) { c.MaxAttempts = 3 }).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, int32(1), exp.calls.Load(), "one attempt")
		assert.Equal(t, 1, got.Attempts)
		assert.Contains(t, got.ErrorReason, "the disk is full")
		assert.NotContains(t, got.ErrorReason, "/srv")
	})
}
