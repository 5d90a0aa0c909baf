package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// lateExporter waits for gate, then writes one file whatever its context
// says, as a slow export that notices nothing would.
type lateExporter struct {
	export.Exporter
	started chan struct{}
	gate    chan struct{}
	ended   chan struct{}
}

func (l lateExporter) Export(ctx context.Context, _ exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	defer close(l.ended)
	close(l.started)
	<-l.gate
	w, err := out.Create(context.WithoutCancel(ctx), "late.gpkg")
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	if _, err := w.Write([]byte("written after the dismissal")); err != nil {
		return nil, err
	}
	a, err := w.Commit()
	if err != nil {
		return nil, err
	}
	return []exporttask.Artifact{{Name: "late.gpkg", Size: a.Size, SHA256: a.SHA256}}, nil
}

// TestRunnerDropsTheFilesOfADismissedTask: a task aborted and dismissed
// while its export runs leaves no files once the export ends, though the
// worker's lease had not yet noticed anything.
func TestRunnerDropsTheFilesOfADismissedTask(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		arts := testkit.Artifacts(t)
		e := lateExporter{started: make(chan struct{}), gate: make(chan struct{}), ended: make(chan struct{})}
		task := testkit.CreateTask(t, s, customer, exporttask.DomainRaster, "")
		testkit.Background(t, testkit.FastRunner(t, s, e, func(c *worker.RunnerConfig) {
			c.Artifacts = arts
			c.Lease = time.Hour // no renewal during the test: Finish is what finds the task gone
			c.Workers = 1
		}).Run)

		testkit.Receive(t, e.started, "the export to start")
		_, err := s.Abort(context.Background(), customer, task.ID, time.Now())
		require.NoError(t, err)
		require.NoError(t, s.Dismiss(context.Background(), customer, task.ID))
		close(e.gate)
		testkit.Receive(t, e.ended, "the export to end")

		prefix := artifactkey.Prefix(task.ID)
		assert.Eventually(t, func() bool {
			left, err := arts.List(context.Background(), prefix)
			return err == nil && len(left) == 0
		}, 10*time.Second, 5*time.Millisecond, "the late file of a dismissed task is deleted")
	})
}
