package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// TestSweepRemovesFinalTasksAfterTheirRetention: a sweep removes an
// ABORTED task (with its leftover files) once FinalRetention has passed
// since it finished, not before, and leaves live tasks alone.
func TestSweepRemovesFinalTasksAfterTheirRetention(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		ctx := context.Background()
		arts := testkit.Artifacts(t)
		aborted := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		live := testkit.CreateTask(t, s, customer, exporttask.DomainRaster, "")
		end := time.Now()
		_, err := s.Abort(ctx, customer, aborted.ID, end)
		require.NoError(t, err)
		// A file an aborted export left behind.
		w, err := arts.Create(ctx, artifactkey.Key(aborted.ID, "left.gpkg"))
		require.NoError(t, err)
		_, err = w.Write([]byte("left behind"))
		require.NoError(t, err)
		_, err = w.Commit()
		require.NoError(t, err)

		clk := clock.NewManual(end.Add(time.Hour - time.Millisecond))
		r, err := worker.NewRunner(worker.RunnerConfig{
			Store: s, Exporter: simulate.New(simulate.Config{}), Artifacts: arts,
			FinalRetention: time.Hour, Logger: testkit.QuietLogger(t), Clock: clk,
		})
		require.NoError(t, err)

		r.SweepOnce(ctx)
		got, err := s.Get(ctx, customer, aborted.ID)
		require.NoError(t, err, "kept until its retention is over")
		assert.Equal(t, exporttask.StatusAborted, got.Status)

		clk.Advance(time.Millisecond)
		r.SweepOnce(ctx)
		_, err = s.Get(ctx, customer, aborted.ID)
		assert.ErrorIs(t, err, taskstore.ErrNotFound, "removed once its retention is over")
		left, err := arts.List(ctx, artifactkey.Prefix(aborted.ID))
		require.NoError(t, err)
		assert.Empty(t, left, "its files are deleted")
		_, err = s.Get(ctx, customer, live.ID)
		assert.NoError(t, err, "a live task stays")
	})
}
