package worker_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/simulate"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

const customer = testkit.Customer

// watchedExporter tells the test when exports start and end.
type watchedExporter struct {
	export.Exporter
	started chan time.Time
	ended   chan error
}

func watch(e export.Exporter) *watchedExporter {
	return &watchedExporter{Exporter: e, started: make(chan time.Time, 16), ended: make(chan error, 16)}
}

func (w *watchedExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	w.started <- time.Now()
	a, err := w.Exporter.Export(ctx, t, out)
	w.ended <- err
	return a, err
}

// TestLifecycle runs a task of every domain through PENDING -> IN_PROGRESS
// -> COMPLETED and checks that the receiver gets TASK_STARTED, the
// TASK_IN_PROGRESS reports and TASK_COMPLETED, in order, signed.
func TestLifecycle(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rcv := testkit.NewReceiver(t, nil)
		sim := simulate.New(simulate.Config{
			Duration: 60 * time.Millisecond, Steps: 3,
		})
		all := []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventCompleted}
		tasks := map[exporttask.Domain]exporttask.Task{}
		for _, d := range exporttask.Domains() {
			task := testkit.CreateTask(t, s, customer, d, rcv.URL+"/hook/"+string(d), all...)
			assert.Equal(t, exporttask.StatusPending, task.Status)
			tasks[d] = task
		}
		arts := testkit.Artifacts(t)
		testkit.Background(t, testkit.FastRunner(t, s, sim, func(c *worker.RunnerConfig) { c.Artifacts = arts }).Run)
		stopDeliverer := testkit.Background(t, testkit.FastDeliverer(t, s, nil).Run)

		for _, d := range exporttask.Domains() {
			got := testkit.WaitStatus(t, s, customer, tasks[d].ID, exporttask.StatusCompleted)
			assert.Equal(t, 100, got.Progress)
			require.Len(t, got.Artifacts, len(simulate.ProducedTypes(d)), d)
			for i, a := range got.Artifacts {
				assert.Equal(t, simulate.ProducedTypes(d)[i], a.Type)
				assert.Empty(t, a.URL, "the server builds download URLs")
				assert.Len(t, a.SHA256, 64)
				obj, err := arts.Open(context.Background(), artifactkey.Key(got.ID, a.Name))
				require.NoError(t, err, "%s is in the artifact store", a.Name)
				assert.Equal(t, a.Size, obj.Info().Size)
				obj.Close()
			}
			require.False(t, got.FinishedAt.IsZero())
			assert.Equal(t, got.FinishedAt.Add(time.Hour), got.ExpiredAt.Time, "expiredAt = finishedAt + retention")
			assert.Empty(t, got.ErrorReason)
		}

		want := []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventInProgress, exporttask.EventCompleted}
		require.Eventually(t, func() bool { return len(rcv.Requests()) >= 3*len(want) }, 5*time.Second, 2*time.Millisecond)
		// Nothing more arrives: every delivery is over, none will be retried.
		testkit.WaitDeliveriesSettled(t, s)
		stopDeliverer()
		byTask := map[int64][]testkit.Received{}
		ids := map[string]bool{}
		for _, r := range rcv.Requests() {
			assert.NoError(t, r.VerifyErr, "signature of %s", r.Event)
			assert.Equal(t, "application/json", r.ContentType)
			assert.NotEmpty(t, r.UserAgent)
			assert.Equal(t, string(r.Payload.Event), r.Event, "X-Export-Event names the body's event")
			assert.False(t, ids[r.Delivery], "delivery id %s seen twice", r.Delivery)
			ids[r.Delivery] = true
			byTask[r.Payload.Data.ID] = append(byTask[r.Payload.Data.ID], r)
		}
		for _, d := range exporttask.Domains() {
			got := byTask[tasks[d].ID]
			var evs []exporttask.Event
			var progress []int
			for _, r := range got {
				evs = append(evs, r.Payload.Event)
				progress = append(progress, r.Payload.Data.Progress)
			}
			assert.Equal(t, want, evs, "%s: events in order", d)
			// The export's 33% and 66% are the task's 29% and 59%: the
			// export covers 0..90%, storing the rest.
			assert.Equal(t, []int{0, 29, 59, 100}, progress, "%s: progress in the payloads", d)
			if assert.Len(t, got, len(want)) {
				assert.Equal(t, exporttask.StatusInProgress, got[0].Payload.Data.Status)
				assert.Equal(t, exporttask.StatusCompleted, got[3].Payload.Data.Status)
				assert.Len(t, got[3].Payload.Data.Artifacts, len(simulate.ProducedTypes(d)))
			}
		}
	})
}

func TestRunnerFailedExport(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rcv := testkit.NewReceiver(t, nil)
		sim := simulate.New(simulate.Config{
			Duration: 20 * time.Millisecond, Steps: 2,
			Fail: func(task exporttask.Task, p int) error {
				if p == 100 {
					return errors.New("source imagery unavailable")
				}
				return nil
			},
		})
		task := testkit.CreateTask(t, s, customer, exporttask.DomainRaster, rcv.URL, exporttask.EventFailed, exporttask.EventCompleted)
		testkit.Background(t, testkit.FastRunner(t, s, sim, nil).Run)
		testkit.Background(t, testkit.FastDeliverer(t, s, nil).Run)

		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, "failed 3 times, last: source imagery unavailable", got.ErrorReason, "a transient error is retried up to the maximum")
		assert.Equal(t, worker.DefaultMaxAttempts, got.Attempts)
		assert.Empty(t, got.Artifacts)
		assert.False(t, got.FinishedAt.IsZero())
		require.Eventually(t, func() bool { return len(rcv.Requests()) == 1 }, 5*time.Second, 2*time.Millisecond)
		assert.Equal(t, []exporttask.Event{exporttask.EventFailed}, rcv.Events())
		assert.Equal(t, "failed 3 times, last: source imagery unavailable", rcv.Requests()[0].Payload.Data.ErrorReason)
	})
}

type panickingExporter struct{ export.Exporter }

func (panickingExporter) Export(context.Context, exporttask.Task, export.Output) ([]exporttask.Artifact, error) {
	var m map[string]int
	m["boom"]++ // a bug in the exporter
	return nil, nil
}

// TestRunnerSurvivesPanickingExporter: a panic fails its task at once
// (the same input would panic again), with no internals in errorReason.
func TestRunnerSurvivesPanickingExporter(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		task := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		testkit.Background(t, testkit.FastRunner(t, s, panickingExporter{}, nil).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, "the export stopped on an internal error; it is not tried again", got.ErrorReason, "no internals in errorReason")
		assert.Equal(t, 1, got.Attempts, "a panic is not retried")
	})
}

// panicOnDEM panics for DEM tasks, as an exporter with a bug on a hostile
// input would; other tasks it exports with next.
type panicOnDEM struct{ next export.Exporter }

func (e panicOnDEM) Estimate(ctx context.Context, r exporttask.CreateRequest) (export.Estimate, error) {
	return e.next.Estimate(ctx, r)
}

func (e panicOnDEM) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	if t.Domain == exporttask.DomainDEM {
		var rows [][]float64
		_ = rows[len(t.Description)][1]
	}
	return e.next.Export(ctx, t, out)
}

// TestPanicFailsOnlyItsTask: a task whose export panics is
// FAILED after one attempt while another customer's task, running beside
// it, COMPLETES with one attempt.
func TestPanicFailsOnlyItsTask(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		bad := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		good := testkit.CreateTask(t, s, "another-customer", exporttask.DomainRaster, "")
		sim := simulate.New(simulate.Config{Duration: 50 * time.Millisecond, Steps: 2})
		testkit.Background(t, testkit.FastRunner(t, s, panicOnDEM{next: sim}, nil).Run)
		got := testkit.WaitStatus(t, s, customer, bad.ID, exporttask.StatusFailed)
		assert.Equal(t, guard.Reason, got.ErrorReason)
		assert.Equal(t, 1, got.Attempts)
		other := testkit.WaitStatus(t, s, "another-customer", good.ID, exporttask.StatusCompleted)
		assert.Equal(t, 1, other.Attempts)
	})
}

// TestRunnerAbortCancelsExport aborts a task mid-export: the next lease
// renewal gets ErrLeaseLost and cancels the export, which stops at once;
// the task stays ABORTED.
func TestRunnerAbortCancelsExport(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		w := watch(simulate.New(simulate.Config{Duration: time.Minute, Steps: 2}))
		task := testkit.CreateTask(t, s, customer, exporttask.Domain3D, "")
		// Lease 300ms: renewed every 100ms, while the simulator reports only
		// every 30s, so the renewal is what notices the abort. One worker:
		// nothing else could claim the task if a renewal came late.
		renewing := renewingStore{Store: s, renewed: make(chan struct{}, 16)}
		stopRunner := testkit.Background(t, testkit.FastRunner(t, renewing, w, func(c *worker.RunnerConfig) {
			c.Lease = 300 * time.Millisecond
			c.Workers = 1
		}).Run)

		testkit.Receive(t, w.started, "the export to start")
		// Four renewals, 100ms apart, keep the lease past its first term.
		for range 4 {
			testkit.Receive(t, renewing.renewed, "a renewal of the lease")
		}
		_, err := s.Abort(context.Background(), customer, task.ID, time.Now())
		require.NoError(t, err)
		aborted := time.Now()
		err = testkit.Receive(t, w.ended, "the export to stop")
		assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
		assert.Less(t, time.Since(aborted), time.Second)

		got, err := s.Get(context.Background(), customer, task.ID)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusAborted, got.Status)
		// The aborted task is not in the queue, so no worker can start it
		// again; with the runner stopped, nothing started it meanwhile.
		stopRunner()
		_, ok, err := s.Claim(context.Background(), "test-worker", time.Now().Add(time.Hour), time.Minute)
		require.NoError(t, err)
		assert.False(t, ok, "an aborted task can be claimed")
		select {
		case <-w.started:
			t.Error("an aborted task was exported again")
		default:
		}
	})
}

// TestRunnerReclaimsCrashedLease: a worker claimed a task and died. The
// task is not touched while that lease holds, then claimed and completed.
func TestRunnerReclaimsCrashedLease(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		task := testkit.CreateTask(t, s, customer, exporttask.DomainRaster, "")
		const crashedLease = 300 * time.Millisecond
		claimedAt := time.Now()
		claimed, ok, err := s.Claim(context.Background(), "crashed-process/1", claimedAt, crashedLease)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, task.ID, claimed.ID)

		w := watch(simulate.New(simulate.Config{Duration: 10 * time.Millisecond}))
		testkit.Background(t, testkit.FastRunner(t, s, w, nil).Run)
		start := testkit.Receive(t, w.started, "the re-claimed export to start")
		assert.False(t, start.Before(claimedAt.Add(crashedLease)), "claimed again only after the lease ended")
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		assert.NotEmpty(t, got.Artifacts)

		// The crashed worker's late report is refused.
		_, err = s.Progress(context.Background(), task.ID, "crashed-process/1", 50, time.Now(), time.Second)
		assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
	})
}

// TestRunnerShutdown stops a Runner and a Deliverer mid-export: both Run
// calls return promptly, every goroutine they started ends, the task keeps
// its lease (still IN_PROGRESS), and a later runner completes it once the
// lease ends.
func TestRunnerShutdown(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rcv := testkit.NewReceiver(t, nil)
		task := testkit.CreateTask(t, s, customer, exporttask.DomainRaster, rcv.URL, exporttask.EventStarted, exporttask.EventCompleted)

		w := watch(simulate.New(simulate.Config{Duration: time.Minute}))
		const lease = 300 * time.Millisecond
		stopRunner := testkit.Background(t, testkit.FastRunner(t, s, w, func(c *worker.RunnerConfig) { c.Lease = lease }).Run)
		rec := testkit.NewRecordingStore(s)
		stopDeliverer := testkit.Background(t, testkit.FastDeliverer(t, rec, nil).Run)
		testkit.Receive(t, w.started, "the export to start")
		// Stop once TASK_STARTED is recorded as delivered: were the attempt
		// cut short, it would be sent again after its lease (Timeout + 30s).
		require.Eventually(t, func() bool { return rec.Recorded() == 1 }, 5*time.Second, 2*time.Millisecond)

		stoppedAt := time.Now()
		stopRunner()
		stopDeliverer()
		assert.Less(t, time.Since(stoppedAt), time.Second)
		_, ok, err := s.Claim(context.Background(), "probe", time.Now(), lease)
		require.NoError(t, err)
		assert.False(t, ok, "the interrupted task keeps its lease")
		assert.ErrorIs(t, testkit.Receive(t, w.ended, "the export to stop"), context.Canceled)
		testkit.NoLeftoverGoroutines(t)

		got, err := s.Get(context.Background(), customer, task.ID)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusInProgress, got.Status, "an interrupted task keeps its lease")

		w2 := watch(simulate.New(simulate.Config{Duration: 10 * time.Millisecond}))
		testkit.Background(t, testkit.FastRunner(t, s, w2, nil).Run)
		testkit.Background(t, testkit.FastDeliverer(t, s, nil).Run)
		testkit.Receive(t, w2.started, "the restarted export")
		testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		require.Eventually(t, func() bool { return len(rcv.Requests()) == 2 }, 5*time.Second, 2*time.Millisecond, "%v", rcv.Events())
		assert.Equal(t, []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}, rcv.Events())
	})
}

// TestRunnerSweeperExpires: once the retention is over, the sweeper moves
// the task to EXPIRED, hides its artifacts' URLs and emits TASK_EXPIRED.
func TestRunnerSweeperExpires(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		rcv := testkit.NewReceiver(t, nil)
		task := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, rcv.URL, exporttask.EventCompleted, exporttask.EventExpired)
		sim := simulate.New(simulate.Config{Duration: 5 * time.Millisecond, Steps: 1})
		testkit.Background(t, testkit.FastRunner(t, s, sim, func(c *worker.RunnerConfig) { c.Retention = 150 * time.Millisecond }).Run)
		testkit.Background(t, testkit.FastDeliverer(t, s, nil).Run)

		completed := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		require.NotEmpty(t, completed.Artifacts)
		expired := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusExpired)
		assert.False(t, time.Now().Before(completed.ExpiredAt.Time), "not expired before expiredAt")
		require.Len(t, expired.Artifacts, len(completed.Artifacts))
		for _, a := range expired.Artifacts {
			assert.Empty(t, a.URL)
		}
		require.Eventually(t, func() bool { return len(rcv.Requests()) == 2 }, 5*time.Second, 2*time.Millisecond)
		assert.Equal(t, []exporttask.Event{exporttask.EventCompleted, exporttask.EventExpired}, rcv.Events())
	})
}

func TestRunnerRunTwice(t *testing.T) {
	st := testkit.NewSignalStore(testkit.OpenStore(t))
	r := testkit.FastRunner(t, st, simulate.New(simulate.Config{}), nil)
	stop := testkit.Background(t, r.Run)
	testkit.Receive(t, st.Claimed, "a worker to claim") // Run has started
	assert.ErrorIs(t, r.Run(context.Background()), worker.ErrRunning)
	stop()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.NoError(t, r.Run(ctx), "runs again after it returned")
}

func TestNewRunnerNeedsItsDependencies(t *testing.T) {
	exp, arts := simulate.New(simulate.Config{}), testkit.Artifacts(t)
	_, err := worker.NewRunner(worker.RunnerConfig{Exporter: exp, Artifacts: arts})
	assert.EqualError(t, err, "worker: RunnerConfig.Store is required")
	_, err = worker.NewRunner(worker.RunnerConfig{Store: testkit.OpenStore(t), Artifacts: arts})
	assert.EqualError(t, err, "worker: RunnerConfig.Exporter is required")
	_, err = worker.NewRunner(worker.RunnerConfig{Store: testkit.OpenStore(t), Exporter: exp})
	assert.EqualError(t, err, "worker: RunnerConfig.Artifacts is required")
	r, err := worker.NewRunner(worker.RunnerConfig{Store: testkit.OpenStore(t), Exporter: exp, Artifacts: arts})
	assert.NoError(t, err)
	assert.NotNil(t, r)
}

// troubledStore fails some calls the way a store under trouble would: the
// Runner logs and keeps going, and the task still completes.
type troubledStore struct {
	taskstore.Store
	claims, progresses, expires atomic.Int32
}

var errTroubled = errors.New("troubled: database is locked")

func (s *troubledStore) Claim(ctx context.Context, w string, now time.Time, l time.Duration) (exporttask.Task, bool, error) {
	if s.claims.Add(1) <= 3 {
		return exporttask.Task{}, false, errTroubled
	}
	return s.Store.Claim(ctx, w, now, l)
}

func (s *troubledStore) Progress(ctx context.Context, id int64, w string, p int, now time.Time, l time.Duration) (exporttask.Task, error) {
	if s.progresses.Add(1)%2 == 1 {
		return exporttask.Task{}, errTroubled
	}
	return s.Store.Progress(ctx, id, w, p, now, l)
}

func (s *troubledStore) Expire(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	if s.expires.Add(1) <= 2 {
		return nil, errTroubled
	}
	return s.Store.Expire(ctx, now, limit)
}

func TestRunnerRidesOutStoreFailures(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		fs := &troubledStore{Store: s}
		task := testkit.CreateTask(t, s, customer, exporttask.Domain3D, "")
		sim := simulate.New(simulate.Config{Duration: 40 * time.Millisecond, Steps: 4})
		testkit.Background(t, testkit.FastRunner(t, fs, sim, func(c *worker.RunnerConfig) { c.Retention = 50 * time.Millisecond }).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		assert.Equal(t, 100, got.Progress)
		testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusExpired)
		assert.Greater(t, fs.claims.Load(), int32(3))
		assert.Greater(t, fs.progresses.Load(), int32(1))
		assert.Greater(t, fs.expires.Load(), int32(2))
	})
}

// halfExporter commits one file, then fails with err.
type halfExporter struct {
	export.Exporter
	err error
}

func (h halfExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	w, err := out.Create(ctx, "part.gpkg")
	if err != nil {
		return nil, err
	}
	if _, err := w.Write([]byte("half a GeoPackage")); err != nil {
		return nil, err
	}
	if _, err := w.Commit(); err != nil {
		return nil, err
	}
	return nil, h.err
}

// TestRunnerFailureLeavesNoFiles: a failed export's committed files are
// removed from the artifact store; a PermanentError's Reason is the
// errorReason.
func TestRunnerFailureLeavesNoFiles(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		arts := testkit.Artifacts(t)
		exp := halfExporter{Exporter: simulate.New(simulate.Config{}),
			err: export.Permanent("the record's tiles are unreadable", errors.New("sqlite: file is not a database"))}
		task := testkit.CreateTask(t, s, customer, exporttask.DomainRaster, "")
		testkit.Background(t, testkit.FastRunner(t, s, exp, func(c *worker.RunnerConfig) { c.Artifacts = arts }).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, "the record's tiles are unreadable", got.ErrorReason)
		left, err := arts.List(context.Background(), artifactkey.Prefix(task.ID))
		require.NoError(t, err)
		assert.Empty(t, left, "nothing of the failed export stays")
	})
}

// TestRunnerSweeperDeletesFiles: an expired task's files are removed.
func TestRunnerSweeperDeletesFiles(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		arts := testkit.Artifacts(t)
		task := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		sim := simulate.New(simulate.Config{Duration: 5 * time.Millisecond, Steps: 1})
		testkit.Background(t, testkit.FastRunner(t, s, sim, func(c *worker.RunnerConfig) {
			c.Artifacts = arts
			c.Retention = 300 * time.Millisecond
		}).Run)
		completed := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		files, err := arts.List(context.Background(), artifactkey.Prefix(task.ID))
		require.NoError(t, err)
		assert.Len(t, files, len(completed.Artifacts), "the files exist while the task is COMPLETED")
		testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusExpired)
		require.Eventually(t, func() bool {
			files, err := arts.List(context.Background(), artifactkey.Prefix(task.ID))
			return err == nil && len(files) == 0
		}, 5*time.Second, 5*time.Millisecond, "the expired task's files are deleted")
	})
}

// flakyExporter fails its first attempt at each task with a transient
// error after writing a file, then exports with the simulator.
type flakyExporter struct{ export.Exporter }

func (f flakyExporter) Export(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	if t.Attempts == 1 {
		if _, err := (halfExporter{err: errors.New("source temporarily unreachable")}).Export(ctx, t, out); err != nil {
			return nil, err
		}
	}
	return f.Exporter.Export(ctx, t, out)
}

// TestRunnerRetriesTransientFailures: a transient failure is tried again;
// the second attempt completes, with the counter at 2 and none of the
// first attempt's files left.
func TestRunnerRetriesTransientFailures(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		arts := testkit.Artifacts(t)
		exp := flakyExporter{simulate.New(simulate.Config{Duration: 5 * time.Millisecond, Steps: 1})}
		task := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		testkit.Background(t, testkit.FastRunner(t, s, exp, func(c *worker.RunnerConfig) { c.Artifacts = arts }).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		assert.Equal(t, 2, got.Attempts)
		assert.Empty(t, got.ErrorReason)
		files, err := arts.List(context.Background(), artifactkey.Prefix(task.ID))
		require.NoError(t, err)
		assert.Len(t, files, len(got.Artifacts), "only the second attempt's files")
		for _, f := range files {
			assert.NotEqual(t, artifactkey.Key(task.ID, "part.gpkg"), f.Key)
		}
	})
}

// TestRunnerMaxAttempts: with MaxAttempts 1 a transient failure is final.
func TestRunnerMaxAttempts(t *testing.T) {
	testkit.ForEachStore(t, func(t *testing.T, s taskstore.Store) {
		exp := halfExporter{err: errors.New("source temporarily unreachable")}
		task := testkit.CreateTask(t, s, customer, exporttask.DomainDEM, "")
		testkit.Background(t, testkit.FastRunner(t, s, exp, func(c *worker.RunnerConfig) { c.MaxAttempts = 1 }).Run)
		got := testkit.WaitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, 1, got.Attempts)
		assert.Equal(t, "source temporarily unreachable", got.ErrorReason)
	})
}

// renewingStore signals each lease renewal (a Progress that succeeded) on
// renewed, dropping the signals nobody waits for.
type renewingStore struct {
	taskstore.Store
	renewed chan struct{}
}

func (s renewingStore) Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error) {
	t, err := s.Store.Progress(ctx, id, worker, progress, now, lease)
	if err == nil {
		select {
		case s.renewed <- struct{}{}:
		default:
		}
	}
	return t, err
}
