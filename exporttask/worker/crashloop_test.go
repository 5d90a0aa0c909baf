package worker_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// crashHelperEnv names the directory of the crash loop's store when this
// test binary runs as the crashing process.
const crashHelperEnv = "WORKER_CRASH_LOOP_DIR"

// killer kills its own process (SIGKILL, as the kernel's OOM killer
// would) when it exports a DEM task, once another task has started beside
// it or, alone, at once; it exports every other task with next.
type killer struct {
	next         export.Exporter
	once         sync.Once
	otherStarted chan struct{}
}

func (k *killer) Estimate(ctx context.Context, r exporttask.CreateRequest) (export.Estimate, error) {
	return k.next.Estimate(ctx, r)
}

func (k *killer) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	if t.Domain != exporttask.DomainDEM {
		k.once.Do(func() { close(k.otherStarted) })
		return k.next.Export(ctx, t, out)
	}
	if t.Attempts == 1 {
		<-k.otherStarted // both tasks run when the process dies
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

// TestCrashLoopHelper is the crashing process of
// TestCrashLoopFailsOnlyTheCulprit; it is skipped in a normal run.
func TestCrashLoopHelper(t *testing.T) {
	dir := os.Getenv(crashHelperEnv)
	if dir == "" {
		t.Skip("the process that TestCrashLoopFailsOnlyTheCulprit starts")
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(dir, "tasks.db"))
	require.NoError(t, err)
	arts, err := filestore.Open(ctx, filepath.Join(dir, "artifacts"))
	require.NoError(t, err)
	sim := simulate.New(simulate.Config{Duration: 100 * time.Millisecond, Steps: 2})
	r := testkit.FastRunner(t, s, &killer{next: sim, otherStarted: make(chan struct{})}, func(c *worker.RunnerConfig) {
		c.Artifacts = arts
		c.Instance = "crash-helper" // a restart releases the dead run's leases
	})
	runCtx, stop := context.WithCancel(ctx)
	go func() { // exit once no task is left to run
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			st, err := s.Stats(runCtx)
			if err == nil && st.Tasks[exporttask.StatusPending]+st.Tasks[exporttask.StatusInProgress] == 0 {
				stop()
				return
			}
		}
	}()
	require.NoError(t, r.Run(runCtx))
	require.NoError(t, s.Close())
}

// TestCrashLoopFailsOnlyTheCulprit: a DEM task kills its process whenever
// it runs; another customer's task was running beside it the first time.
// The process is started again after each death. The culprit is FAILED
// as soon as it is identified (its lone attempt died with the process),
// without running a third time, and the other task COMPLETES: it is
// never failed for the culprit's crashes. Before, both tasks were resumed
// into the crash loop and both ended FAILED, "interrupted 3 times".
func TestCrashLoopFailsOnlyTheCulprit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	dir := t.TempDir()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(dir, "tasks.db"))
	require.NoError(t, err)
	culprit := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
	other := testkit.CreateTask(t, s, "another-customer", exporttask.DomainRaster, "")
	require.NoError(t, s.Close())

	deaths := 0
	for run := 0; run < 6; run++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashLoopHelper$", "-test.v")
		// The helper's own temporary directories go under dir: it dies by
		// SIGKILL and cannot remove them itself.
		cmd.Env = append(os.Environ(), crashHelperEnv+"="+dir, "TMPDIR="+dir)
		out, err := cmd.CombinedOutput()
		if err == nil {
			break // nothing left to run
		}
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "%s", out)
		ws, _ := ee.Sys().(syscall.WaitStatus)
		require.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL, "the helper failed otherwise: %s", out)
		deaths++
	}
	s, err = sqlite.Open(ctx, filepath.Join(dir, "tasks.db"))
	require.NoError(t, err)
	defer s.Close()
	got, err := s.Get(ctx, customer, culprit.ID)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusFailed, got.Status)
	assert.Equal(t, "the export stopped the server while it ran; it is not tried again", got.ErrorReason)
	assert.Equal(t, 2, deaths, "the crash loop stops once the culprit ran alone")
	got, err = s.Get(ctx, "another-customer", other.ID)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, got.Status, "another customer's task is not failed for the culprit's crash")
	assert.Equal(t, 2, got.Attempts, "one attempt lost to the shared crash, then one alone")
}
