package worker_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// TestRestartedInstanceResumesAtOnce: a task claimed by instance A's
// earlier run (which then "crashed", keeping its lease for an hour) waits
// for its lease under instance B, and is resumed at once when A restarts.
func TestRestartedInstanceResumesAtOnce(t *testing.T) {
	st := testkit.OpenStore(t)
	task := testkit.CreateTask(t, st, customer, exporttask.DomainRaster, "")
	claimed, ok, err := st.Claim(t.Context(), "A/crashed/1", time.Now(), time.Hour)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, task.ID, claimed.ID)

	sim := watch(simulate.New(simulate.Config{Duration: 10 * time.Millisecond, Steps: 1}))
	signal := testkit.NewSignalStore(st)
	b := testkit.FastRunner(t, signal, sim, func(c *worker.RunnerConfig) {
		c.Instance = "B"
		c.Lease = time.Hour
	})
	stopB := testkit.Background(t, b.Run)
	for range 3 { // B's workers have asked for work, and got none
		<-signal.Claimed
	}
	stopB()
	select {
	case <-sim.started:
		t.Fatal("instance B ran A's task before its lease ended")
	default:
	}
	got, err := st.Get(t.Context(), customer, task.ID)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusInProgress, got.Status)

	a := testkit.FastRunner(t, st, sim, func(c *worker.RunnerConfig) {
		c.Instance = "A"
		c.Lease = time.Hour
	})
	testkit.Background(t, a.Run)
	select {
	case <-sim.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the restarted instance A did not resume its task")
	}
	testkit.WaitStatus(t, st, customer, task.ID, exporttask.StatusCompleted)
}

func TestInstanceWithSlashIsRefused(t *testing.T) {
	r := testkit.FastRunner(t, testkit.OpenStore(t), simulate.New(simulate.Config{}), func(c *worker.RunnerConfig) {
		c.Instance = "a/b"
	})
	err := r.Run(t.Context())
	assert.ErrorContains(t, err, `instance "a/b" must not contain '/'`)
}
