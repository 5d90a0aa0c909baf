package worker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// downStore is an artifact store whose service cannot be reached.
type downStore struct{ artifact.Store }

func (downStore) Create(context.Context, string) (artifact.Writer, error) {
	return nil, errors.New(`s3store: create "1/x.gpkg": dial tcp 10.1.2.3:9000 (bucket secret-exports): connection refused`)
}

// TestRunnerHidesStorageErrors: an export that cannot store its files ends
// FAILED with a reason that does not repeat the store's error.
func TestRunnerHidesStorageErrors(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		task := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		sim := simulate.New(simulate.Config{Duration: time.Millisecond})
		testkit.Background(t, testkit.FastRunner(t, s, sim, func(c *worker.RunnerConfig) {
			c.Artifacts = downStore{c.Artifacts}
			c.MaxAttempts = 2
		}).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, "failed 2 times, last: the exported files could not be stored", got.ErrorReason)
	})
}
