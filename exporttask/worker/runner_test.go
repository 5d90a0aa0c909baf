package exporttask_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

const customer = "acme"

// watchedExporter tells the test when exports start and end.
type watchedExporter struct {
	exporttask.Exporter
	started chan time.Time
	ended   chan error
}

func watch(e exporttask.Exporter) *watchedExporter {
	return &watchedExporter{Exporter: e, started: make(chan time.Time, 16), ended: make(chan error, 16)}
}

func (w *watchedExporter) Export(ctx context.Context, t exporttask.Task, report func(int) error) ([]exporttask.Artifact, error) {
	w.started <- time.Now()
	a, err := w.Exporter.Export(ctx, t, report)
	w.ended <- err
	return a, err
}

func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		require.FailNow(t, "timed out waiting for "+what)
	}
	var zero T
	return zero
}

// TestLifecycle runs a task of every domain through PENDING -> IN_PROGRESS
// -> COMPLETED and checks that the receiver gets TASK_STARTED, the
// TASK_IN_PROGRESS reports and TASK_COMPLETED, in order, signed.
func TestLifecycle(t *testing.T) {
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		rcv := newReceiver(t, nil)
		sim := exporttask.NewSimulator(exporttask.SimulatorConfig{
			Duration: 60 * time.Millisecond, Steps: 3, BaseURL: "https://dl.example.com/a",
		})
		all := []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventCompleted}
		tasks := map[exporttask.Domain]exporttask.Task{}
		for _, d := range exporttask.Domains() {
			task := createTask(t, s, customer, d, rcv.URL+"/hook/"+string(d), all...)
			assert.Equal(t, exporttask.StatusPending, task.Status)
			tasks[d] = task
		}
		background(t, fastRunner(t, s, sim, nil).Run)
		background(t, fastDeliverer(t, s, nil).Run)

		for _, d := range exporttask.Domains() {
			got := waitStatus(t, s, customer, tasks[d].ID, exporttask.StatusCompleted)
			assert.Equal(t, 100, got.Progress)
			require.Len(t, got.Artifacts, len(exporttask.ArtifactTypes(d)), d)
			var size int64
			for i, a := range got.Artifacts {
				assert.Equal(t, exporttask.ArtifactTypes(d)[i], a.Type)
				assert.Equal(t, "https://dl.example.com/a/"+strconv.FormatInt(got.ID, 10)+"/"+a.Name, a.URL)
				assert.Len(t, a.SHA256, 64)
				size += a.Size
			}
			assert.Equal(t, tasks[d].EstimatedSize, size)
			require.False(t, got.FinishedAt.IsZero())
			assert.Equal(t, got.FinishedAt.Add(time.Hour), got.ExpiredAt.Time, "expiredAt = finishedAt + retention")
			assert.Empty(t, got.ErrorReason)
		}

		want := []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress, exporttask.EventInProgress, exporttask.EventCompleted}
		require.Eventually(t, func() bool { return len(rcv.requests()) >= 3*len(want) }, 5*time.Second, 2*time.Millisecond)
		time.Sleep(20 * time.Millisecond) // nothing more should arrive
		byTask := map[int64][]received{}
		ids := map[string]bool{}
		for _, r := range rcv.requests() {
			assert.NoError(t, r.verifyErr, "signature of %s", r.event)
			assert.Equal(t, "application/json", r.contentType)
			assert.NotEmpty(t, r.userAgent)
			assert.Equal(t, string(r.payload.Event), r.event, "X-Export-Event names the body's event")
			assert.False(t, ids[r.delivery], "delivery id %s seen twice", r.delivery)
			ids[r.delivery] = true
			byTask[r.payload.Data.ID] = append(byTask[r.payload.Data.ID], r)
		}
		for _, d := range exporttask.Domains() {
			got := byTask[tasks[d].ID]
			var evs []exporttask.Event
			var progress []int
			for _, r := range got {
				evs = append(evs, r.payload.Event)
				progress = append(progress, r.payload.Data.Progress)
			}
			assert.Equal(t, want, evs, "%s: events in order", d)
			assert.Equal(t, []int{0, 33, 66, 100}, progress, "%s: progress in the payloads", d)
			if assert.Len(t, got, len(want)) {
				assert.Equal(t, exporttask.StatusInProgress, got[0].payload.Data.Status)
				assert.Equal(t, exporttask.StatusCompleted, got[3].payload.Data.Status)
				assert.Len(t, got[3].payload.Data.Artifacts, len(exporttask.ArtifactTypes(d)))
			}
		}
	})
}

func TestRunnerFailedExport(t *testing.T) {
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		rcv := newReceiver(t, nil)
		sim := exporttask.NewSimulator(exporttask.SimulatorConfig{
			Duration: 20 * time.Millisecond, Steps: 2,
			Fail: func(task exporttask.Task, p int) error {
				if p == 100 {
					return errors.New("source imagery unavailable")
				}
				return nil
			},
		})
		task := createTask(t, s, customer, exporttask.DomainRaster, rcv.URL, exporttask.EventFailed, exporttask.EventCompleted)
		background(t, fastRunner(t, s, sim, nil).Run)
		background(t, fastDeliverer(t, s, nil).Run)

		got := waitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, "source imagery unavailable", got.ErrorReason)
		assert.Empty(t, got.Artifacts)
		assert.False(t, got.FinishedAt.IsZero())
		require.Eventually(t, func() bool { return len(rcv.requests()) == 1 }, 5*time.Second, 2*time.Millisecond)
		assert.Equal(t, []exporttask.Event{exporttask.EventFailed}, rcv.events())
		assert.Equal(t, "source imagery unavailable", rcv.requests()[0].payload.Data.ErrorReason)
	})
}

type panickingExporter struct{ exporttask.Exporter }

func (panickingExporter) Export(context.Context, exporttask.Task, func(int) error) ([]exporttask.Artifact, error) {
	var m map[string]int
	m["boom"]++ // a bug in the exporter
	return nil, nil
}

func TestRunnerSurvivesPanickingExporter(t *testing.T) {
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		task := createTask(t, s, customer, exporttask.DomainDEM, "")
		background(t, fastRunner(t, s, panickingExporter{}, nil).Run)
		got := waitStatus(t, s, customer, task.ID, exporttask.StatusFailed)
		assert.Equal(t, "internal error during export", got.ErrorReason, "no internals in errorReason")
	})
}

// TestRunnerAbortCancelsExport aborts a task mid-export: the next lease
// renewal gets ErrLeaseLost and cancels the export, which stops at once;
// the task stays ABORTED.
func TestRunnerAbortCancelsExport(t *testing.T) {
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		w := watch(exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: time.Minute, Steps: 2}))
		task := createTask(t, s, customer, exporttask.Domain3D, "")
		// Lease 300ms: renewed every 100ms, while the simulator reports only
		// every 30s, so the renewal is what notices the abort. One worker:
		// nothing else could claim the task if a renewal came late.
		background(t, fastRunner(t, s, w, func(c *exporttask.RunnerConfig) {
			c.Lease = 300 * time.Millisecond
			c.Workers = 1
		}).Run)

		receive(t, w.started, "the export to start")
		time.Sleep(350 * time.Millisecond) // renewals keep the lease past its first term
		_, err := s.Abort(context.Background(), customer, task.ID, time.Now())
		require.NoError(t, err)
		aborted := time.Now()
		err = receive(t, w.ended, "the export to stop")
		assert.ErrorIs(t, err, exporttask.ErrLeaseLost)
		assert.Less(t, time.Since(aborted), time.Second)

		time.Sleep(50 * time.Millisecond)
		got, err := s.Get(context.Background(), customer, task.ID)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusAborted, got.Status)
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
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		task := createTask(t, s, customer, exporttask.DomainRaster, "")
		const crashedLease = 300 * time.Millisecond
		claimedAt := time.Now()
		claimed, ok, err := s.Claim(context.Background(), "crashed-process/1", claimedAt, crashedLease)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, task.ID, claimed.ID)

		w := watch(exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: 10 * time.Millisecond}))
		background(t, fastRunner(t, s, w, nil).Run)
		start := receive(t, w.started, "the re-claimed export to start")
		assert.False(t, start.Before(claimedAt.Add(crashedLease)), "claimed again only after the lease ended")
		got := waitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
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
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		rcv := newReceiver(t, nil)
		task := createTask(t, s, customer, exporttask.DomainRaster, rcv.URL, exporttask.EventStarted, exporttask.EventCompleted)

		w := watch(exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: time.Minute}))
		const lease = 300 * time.Millisecond
		stopRunner := background(t, fastRunner(t, s, w, func(c *exporttask.RunnerConfig) { c.Lease = lease }).Run)
		rec := newRecordingStore(s)
		stopDeliverer := background(t, fastDeliverer(t, rec, nil).Run)
		receive(t, w.started, "the export to start")
		// Stop once TASK_STARTED is recorded as delivered: were the attempt
		// cut short, it would be sent again after its lease (Timeout + 30s).
		require.Eventually(t, func() bool { return rec.recorded() == 1 }, 5*time.Second, 2*time.Millisecond)

		stoppedAt := time.Now()
		stopRunner()
		stopDeliverer()
		assert.Less(t, time.Since(stoppedAt), time.Second)
		_, ok, err := s.Claim(context.Background(), "probe", time.Now(), lease)
		require.NoError(t, err)
		assert.False(t, ok, "the interrupted task keeps its lease")
		assert.ErrorIs(t, receive(t, w.ended, "the export to stop"), context.Canceled)
		noLeftoverGoroutines(t)

		got, err := s.Get(context.Background(), customer, task.ID)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusInProgress, got.Status, "an interrupted task keeps its lease")

		w2 := watch(exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: 10 * time.Millisecond}))
		background(t, fastRunner(t, s, w2, nil).Run)
		background(t, fastDeliverer(t, s, nil).Run)
		receive(t, w2.started, "the restarted export")
		waitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		require.Eventually(t, func() bool { return len(rcv.requests()) == 2 }, 5*time.Second, 2*time.Millisecond, "%v", rcv.events())
		assert.Equal(t, []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}, rcv.events())
	})
}

// TestRunnerSweeperExpires: once the retention is over, the sweeper moves
// the task to EXPIRED, hides its artifacts' URLs and emits TASK_EXPIRED.
func TestRunnerSweeperExpires(t *testing.T) {
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		rcv := newReceiver(t, nil)
		task := createTask(t, s, customer, exporttask.DomainDEM, rcv.URL, exporttask.EventCompleted, exporttask.EventExpired)
		sim := exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: 5 * time.Millisecond, Steps: 1})
		background(t, fastRunner(t, s, sim, func(c *exporttask.RunnerConfig) { c.Retention = 150 * time.Millisecond }).Run)
		background(t, fastDeliverer(t, s, nil).Run)

		completed := waitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		require.NotEmpty(t, completed.Artifacts)
		assert.NotEmpty(t, completed.Artifacts[0].URL)
		expired := waitStatus(t, s, customer, task.ID, exporttask.StatusExpired)
		assert.False(t, time.Now().Before(completed.ExpiredAt.Time), "not expired before expiredAt")
		require.Len(t, expired.Artifacts, len(completed.Artifacts))
		for _, a := range expired.Artifacts {
			assert.Empty(t, a.URL)
		}
		require.Eventually(t, func() bool { return len(rcv.requests()) == 2 }, 5*time.Second, 2*time.Millisecond)
		assert.Equal(t, []exporttask.Event{exporttask.EventCompleted, exporttask.EventExpired}, rcv.events())
	})
}

func TestRunnerRunTwice(t *testing.T) {
	r := fastRunner(t, newMemStore(), exporttask.NewSimulator(exporttask.SimulatorConfig{}), nil)
	stop := background(t, r.Run)
	time.Sleep(10 * time.Millisecond)
	assert.ErrorIs(t, r.Run(context.Background()), exporttask.ErrRunning)
	stop()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.NoError(t, r.Run(ctx), "runs again after it returned")
}

func TestNewRunnerNeedsStoreAndExporter(t *testing.T) {
	assert.PanicsWithValue(t, "exporttask: NewRunner needs a Store", func() {
		exporttask.NewRunner(exporttask.RunnerConfig{Exporter: exporttask.NewSimulator(exporttask.SimulatorConfig{})})
	})
	assert.PanicsWithValue(t, "exporttask: NewRunner needs an Exporter", func() {
		exporttask.NewRunner(exporttask.RunnerConfig{Store: newMemStore()})
	})
}

// troubledStore fails some calls the way a store under trouble would: the
// Runner logs and keeps going, and the task still completes.
type troubledStore struct {
	exporttask.Store
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

func (s *troubledStore) Expire(ctx context.Context, now time.Time, limit int) (int, error) {
	if s.expires.Add(1) <= 2 {
		return 0, errTroubled
	}
	return s.Store.Expire(ctx, now, limit)
}

func TestRunnerRidesOutStoreFailures(t *testing.T) {
	forEachStore(t, func(t *testing.T, s exporttask.Store) {
		fs := &troubledStore{Store: s}
		task := createTask(t, s, customer, exporttask.Domain3D, "")
		sim := exporttask.NewSimulator(exporttask.SimulatorConfig{Duration: 40 * time.Millisecond, Steps: 4})
		background(t, fastRunner(t, fs, sim, func(c *exporttask.RunnerConfig) { c.Retention = 50 * time.Millisecond }).Run)
		got := waitStatus(t, s, customer, task.ID, exporttask.StatusCompleted)
		assert.Equal(t, 100, got.Progress)
		waitStatus(t, s, customer, task.ID, exporttask.StatusExpired)
		assert.Greater(t, fs.claims.Load(), int32(3))
		assert.Greater(t, fs.progresses.Load(), int32(1))
		assert.Greater(t, fs.expires.Load(), int32(2))
	})
}
