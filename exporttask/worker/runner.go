package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
	"github.com/openapi-viewer/viewer/exporttask/internal/reason"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// RunnerConfig configures a [Runner]. Store and Exporter are required.
type RunnerConfig struct {
	// Store holds the task queue: a [taskstore.Store], or anything with
	// its [taskstore.Queue]. Required.
	Store taskstore.Queue
	// Exporter does the work of each task. Required.
	Exporter export.Exporter
	// Artifacts keeps the files the exports write, each task's under the
	// key prefix "<id>/" (task 42's files under "42/"). Required.
	Artifacts artifact.Store
	// Workers is how many tasks of any size run at once in this process.
	// Default [DefaultWorkers].
	Workers int
	// SmallWorkers is how many more workers take only small tasks (those
	// estimated to take at most SmallTask, see
	// [taskstore.Queue.ClaimSmall]), so that as many large exports as
	// there are Workers cannot hold a small one back. Default
	// [DefaultSmallWorkers]; negative for none.
	SmallWorkers int
	// SmallTask is the most estimated time (exporttask.Task.EstimatedTime)
	// of a task the SmallWorkers take. Default [DefaultSmallTask].
	SmallTask time.Duration
	// LargeTurns is how many chunks of CPU work the large exports of this
	// process (those estimated over SmallTask) do at once while a small
	// export runs here: each chunk waits for one of these turns (see
	// [export.Pace]), so the small export keeps the other cores.
	// Without a small export running they are not held back. Default
	// [DefaultLargeTurns]; negative for no pacing.
	LargeTurns int
	// Wakeup wakes idle workers when a task is created in this process
	// (see [Wakeup]); share it with the task creator through
	// [Wakeup.Store]. Default: a Wakeup of the Runner's own, which only
	// its own workers notify (a worker that claimed a task wakes another,
	// so a burst of tasks is taken up at once, not one per PollInterval).
	Wakeup *Wakeup
	// SpaceDirs are the directories an export fills: the scratch
	// directory and, for a file artifact store, its directory. Before an
	// export starts, its task's estimated size plus 10% must be free on
	// the file system of each, beyond what the exports running in this
	// Runner reserved; else the task is FAILED at once with an
	// errorReason that says the disk is full. Default none: no check.
	SpaceDirs []string
	// FreeSpace returns the bytes free on the file system of dir. Default
	// statfs(2)'s available blocks.
	FreeSpace func(dir string) (uint64, error)
	// Lease is how long a claimed task stays reserved to its worker without
	// news from it. Workers renew it every Lease/3 while the export runs, so
	// a task is claimed again by another worker only when its worker (or
	// process) is gone. Default [DefaultLease].
	Lease time.Duration
	// PollInterval is how long an idle worker waits before asking the store
	// for work again, unless the Wakeup wakes it earlier: the delay
	// before a task created by another process (a replica sharing the
	// store), or given back for a retry, is taken up. Default
	// [DefaultPollInterval].
	PollInterval time.Duration
	// MaxAttempts is how many times a task is tried: an export that fails
	// with an error that is not an [export.PermanentError] (or whose
	// process dies) runs again, until this many attempts; then the task is
	// FAILED with the last error. Default [DefaultMaxAttempts].
	MaxAttempts int
	// RetryDelay is how long a task waits after a transient failure before
	// a worker takes it up again. Default [DefaultRetryDelay].
	RetryDelay time.Duration
	// Retention is how long a completed task's artifacts stay available;
	// the task's expiredAt is its finishedAt plus Retention. Default
	// [exporttask.DefaultRetention].
	Retention time.Duration
	// FinalRetention is how long an ABORTED, FAILED or EXPIRED task stays
	// stored, from its finishedAt (ABORTED, FAILED) or expiredAt
	// (EXPIRED), before the sweeper removes it with its deliveries and
	// Idempotency-Keys (see [taskstore.Queue.Purge]). Default
	// [DefaultFinalRetention].
	FinalRetention time.Duration
	// SweepInterval is how often expired tasks are moved to EXPIRED, and
	// final tasks past FinalRetention removed. Default
	// [DefaultSweepInterval].
	SweepInterval time.Duration
	// ID names this runner in the store's leases; each worker's name is ID
	// followed by "/" and its number. It must differ between processes and
	// between runs of one process. When Instance is set, the name is
	// Instance, "/" and ID (default: a random suffix); else ID (default:
	// host name, process id and a random suffix).
	ID string
	// StopGrace is how long a cancelled export (its task aborted, its
	// lease lost, shutdown) may take to return before its worker leaves
	// it behind and takes other work. Default [DefaultStopGrace].
	StopGrace time.Duration
	// Instance is this process's stable name: the same across its
	// restarts, different from every other process that shares the store,
	// without "/". When set, Run first releases the leases that an earlier
	// run of the same instance left (see [taskstore.Queue.ReleaseLeases]),
	// so a restarted process resumes its interrupted tasks at once instead
	// of after their leases; other processes' tasks still wait for theirs.
	// Default empty: no release.
	Instance string
	// Logger receives the runner's logs. Default slog.Default().
	Logger *slog.Logger
	// Clock is the time of leases, retries and sweeps, and of every
	// timer the Runner waits on: the sweeper's, an idle worker's poll,
	// the renewal of leases, the StopGrace of a cancelled export.
	// Default clock.Real().
	Clock clock.Clock
}

// Runner runs the export tasks of a [taskstore.Queue] with an
// [export.Exporter]: a pool of workers claims tasks from the store's
// queue, runs them, reports their progress and records their outcome, and a
// sweeper expires completed tasks once their retention is over and removes
// final tasks once their final retention is over.
//
// Crash safety rests on leases. A claimed task is leased to one worker, and
// the worker renews the lease while the export runs; the task is claimed
// again only after the lease ends. When a process dies, or [Runner.Run]
// returns because its context is done, an interrupted task keeps its lease
// and stays IN_PROGRESS; once the lease ends, any runner (in this process
// after a restart, or in another replica) claims it and runs the export
// again from the start. No task is lost; an export may run more than once,
// so exporters must be idempotent.
//
// A task claimed again runs alone in its process, so that a process that
// dies under it names its cause: such a task is then FAILED ("the export
// stopped the server while it ran; it is not tried again") instead of
// being resumed into a crash loop, and the tasks that ran beside it the
// first time lose that one attempt and nothing more. A panic in an export
// (in any goroutine that defers guard.Recover) fails its task at once,
// without a retry.
type Runner struct {
	store         taskstore.Queue
	exporter      export.Exporter
	artifacts     artifact.Store
	workers       int
	smallWorkers  int
	smallTask     time.Duration
	wakeup        *Wakeup
	spaceDirs     []string
	freeSpace     func(dir string) (uint64, error)
	space         space
	lease         time.Duration
	poll          time.Duration
	retention     time.Duration
	finalRetain   time.Duration
	maxAttempts   int
	retryDelay    time.Duration
	sweepInterval time.Duration
	stopGrace     time.Duration
	id            string
	instance      string
	log           *slog.Logger
	clock         clock.Clock
	now           func() time.Time // clock.Now
	running       atomic.Bool
	gate          gate   // tasks claimed again run alone (see alone.go)
	pacer         *pacer // turns at CPU work of the large exports (pacer.go); nil for none
}

// NewRunner returns a Runner configured by cfg, with defaults for the fields
// left zero, or an error naming the missing dependency when cfg.Store,
// cfg.Exporter or cfg.Artifacts is nil.
func NewRunner(cfg RunnerConfig) (*Runner, error) {
	if cfg.Store == nil {
		return nil, errors.New("worker: RunnerConfig.Store is required")
	}
	if cfg.Exporter == nil {
		return nil, errors.New("worker: RunnerConfig.Exporter is required")
	}
	if cfg.Artifacts == nil {
		return nil, errors.New("worker: RunnerConfig.Artifacts is required")
	}
	r := &Runner{
		store:         cfg.Store,
		exporter:      cfg.Exporter,
		artifacts:     cfg.Artifacts,
		workers:       cfg.Workers,
		smallWorkers:  cfg.SmallWorkers,
		smallTask:     cfg.SmallTask,
		wakeup:        cfg.Wakeup,
		spaceDirs:     append([]string(nil), cfg.SpaceDirs...),
		freeSpace:     cfg.FreeSpace,
		lease:         cfg.Lease,
		poll:          cfg.PollInterval,
		retention:     cfg.Retention,
		finalRetain:   cfg.FinalRetention,
		maxAttempts:   cfg.MaxAttempts,
		retryDelay:    cfg.RetryDelay,
		sweepInterval: cfg.SweepInterval,
		stopGrace:     cfg.StopGrace,
		id:            cfg.ID,
		instance:      cfg.Instance,
		log:           cfg.Logger,
		clock:         cfg.Clock,
	}
	if r.workers <= 0 {
		r.workers = DefaultWorkers
	}
	switch {
	case r.smallWorkers == 0:
		r.smallWorkers = DefaultSmallWorkers
	case r.smallWorkers < 0:
		r.smallWorkers = 0
	}
	if r.smallTask <= 0 {
		r.smallTask = DefaultSmallTask
	}
	if r.wakeup == nil {
		r.wakeup = NewWakeup()
	}
	switch {
	case cfg.LargeTurns == 0:
		r.pacer = &pacer{limit: DefaultLargeTurns()}
	case cfg.LargeTurns > 0:
		r.pacer = &pacer{limit: cfg.LargeTurns}
	}
	if r.freeSpace == nil {
		r.freeSpace = statfsFree
	}
	if r.lease <= 0 {
		r.lease = DefaultLease
	}
	if r.poll <= 0 {
		r.poll = DefaultPollInterval
	}
	if r.maxAttempts <= 0 {
		r.maxAttempts = DefaultMaxAttempts
	}
	if r.retryDelay <= 0 {
		r.retryDelay = DefaultRetryDelay
	}
	if r.retention <= 0 {
		r.retention = exporttask.DefaultRetention
	}
	if r.finalRetain <= 0 {
		r.finalRetain = DefaultFinalRetention
	}
	if r.sweepInterval <= 0 {
		r.sweepInterval = DefaultSweepInterval
	}
	if r.stopGrace <= 0 {
		r.stopGrace = DefaultStopGrace
	}
	switch {
	case r.instance != "" && r.id == "":
		r.id = r.instance + "/" + randomSuffix()
	case r.instance != "":
		r.id = r.instance + "/" + r.id
	case r.id == "":
		r.id = defaultRunnerID()
	}
	if r.log == nil {
		r.log = slog.Default()
	}
	if r.clock == nil {
		r.clock = clock.Real()
	}
	r.now = r.clock.Now
	return r, nil
}

// defaultRunnerID is unique per process run: host, pid and 4 random bytes.
func defaultRunnerID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	return host + "-" + strconv.Itoa(os.Getpid()) + "-" + randomSuffix()
}

// randomSuffix is 4 random bytes in hex.
func randomSuffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}

// ErrRunning is returned by [Runner.Run] when the same Runner is already
// running.
var ErrRunning = errors.New("worker: already running")

// Run starts the workers and the sweeper and blocks until ctx is done and
// all of them have stopped; then it returns nil. With an Instance, it
// first releases that instance's leases, and returns the error when that
// fails. Exports in progress are
// cancelled and their tasks keep their leases (see [Runner]). Run can be
// called again after it returns, but not while it runs ([ErrRunning]).
func (r *Runner) Run(ctx context.Context) error {
	if !r.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer r.running.Store(false)
	if err := r.releaseOwnLeases(ctx); err != nil {
		return err
	}
	var wg sync.WaitGroup
	lanes := r.lanes()
	wg.Add(len(lanes) + 1)
	for i, l := range lanes {
		worker := r.id + "/" + strconv.Itoa(i+1)
		go func() {
			defer wg.Done()
			r.work(ctx, worker, l)
		}()
	}
	go func() {
		defer wg.Done()
		r.sweep(ctx)
	}()
	wg.Wait()
	return nil
}

// taskRun is one task being exported by one worker: it serialises the
// store calls that report progress and renew the lease.
type taskRun struct {
	r      *Runner
	worker string
	id     int64
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	progress int
}

// report records progress p (kept within 0..100 and, within an attempt,
// never going back) and renews the lease. When the lease is lost (or the task is gone) it cancels
// the export and returns an error wrapping ErrLeaseLost. Other store
// failures are logged and not returned: the export goes on, and the next
// report or renewal tries again.
func (tr *taskRun) report(ctx context.Context, p int) error {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	p = max(tr.progress, min(max(p, 0), 100))
	_, err := tr.r.store.Progress(ctx, tr.id, tr.worker, p, tr.r.now(), tr.r.lease)
	switch {
	case err == nil:
		tr.progress = p
		return nil
	case errors.Is(err, exporttask.ErrLeaseLost), errors.Is(err, taskstore.ErrNotFound):
		err = fmt.Errorf("worker: task %d: %w", tr.id, exporttask.ErrLeaseLost)
		tr.cancel(err)
		return err
	case ctx.Err() != nil:
		return fmt.Errorf("worker: task %d: reporting progress: %w", tr.id, context.Cause(ctx))
	default:
		tr.r.log.WarnContext(ctx, "worker: recording progress", "task", tr.id, "worker", tr.worker, "error", err)
		return nil
	}
}

// renewEvery is how often a worker renews a lease of length lease:
// lease/3, at least a millisecond.
func renewEvery(lease time.Duration) time.Duration {
	return max(lease/3, time.Millisecond)
}

// renew keeps the lease alive every Lease/3 of the Runner's clock until
// ctx is done, for exporters that report rarely.
func (tr *taskRun) renew(ctx context.Context) {
	every := renewEvery(tr.r.lease)
	for {
		tick := tr.r.clock.NewTimer(every)
		select {
		case <-ctx.Done():
			tick.Stop()
			return
		case <-tick.C():
			tr.mu.Lock()
			p := tr.progress
			tr.mu.Unlock()
			if err := tr.report(ctx, p); err != nil {
				return
			}
		}
	}
}

// runTask exports a claimed task and records the outcome. alone says the
// task runs alone in the process (see alone.go).
func (r *Runner) runTask(ctx context.Context, worker string, t exporttask.Task, alone bool) {
	log := r.log.With("task", t.ID, "worker", worker)
	if alone && r.crashedAlone(ctx, log, t.ID) {
		log.ErrorContext(ctx, "worker: the task's last attempt ran alone and its process died; not tried again", "attempt", t.Attempts)
		r.finish(ctx, log, t, worker, taskstore.FinishParams{ErrorReason: crashedReason})
		r.deleteArtifacts(ctx, log, t.ID)
		return
	}
	if t.Attempts > r.maxAttempts {
		// Its earlier attempts never reported back (their processes died).
		r.finish(ctx, log, t, worker, taskstore.FinishParams{ErrorReason: fmt.Sprintf(
			"the export was interrupted %d times; giving up", t.Attempts-1)})
		r.deleteArtifacts(ctx, log, t.ID)
		return
	}
	release, ok := r.checkSpace(ctx, log, t, worker)
	if !ok {
		return
	}
	defer release()
	log.InfoContext(ctx, "worker: export started", "domain", t.Domain, "attempt", t.Attempts)
	exportCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// Every attempt exports from the start: its progress starts at 0, not
	// at where an interrupted attempt left it.
	tr := &taskRun{r: r, worker: worker, id: t.ID, cancel: cancel}
	if t.Progress != 0 {
		if err := tr.report(exportCtx, 0); err != nil {
			log.InfoContext(ctx, "worker: export not started: the task was aborted or its lease lost", "error", err)
			r.cleanUpLost(ctx, log, t)
			return
		}
	}
	renewDone := make(chan struct{})
	go func() {
		defer close(renewDone)
		tr.renew(exportCtx)
	}()
	// Files of an earlier, interrupted run of this task are removed: the
	// export starts again from nothing.
	r.deleteArtifacts(ctx, log, t.ID)
	if alone {
		r.markAlone(ctx, log, t.ID)
	}
	out := &taskOutput{store: r.artifacts, taskID: t.ID, expected: t.EstimatedSize,
		report: func(p int) error { return tr.report(exportCtx, p) }}
	pacedCtx, endPace := r.pace(exportCtx, t)
	artifacts, err := r.exportBounded(pacedCtx, t, out)
	endPace()
	cancel(nil)
	<-renewDone
	if alone { // the attempt ended without taking the process down
		r.unmarkAlone(ctx, log, t.ID)
	}

	switch cause := context.Cause(exportCtx); {
	case errors.Is(cause, exporttask.ErrLeaseLost):
		log.InfoContext(ctx, "worker: export stopped: the task was aborted or its lease lost")
		r.cleanUpLost(ctx, log, t)
		return
	case err != nil && ctx.Err() != nil:
		log.InfoContext(ctx, "worker: export interrupted by shutdown; the task is claimed again when its lease ends")
		return
	}

	p := taskstore.FinishParams{Artifacts: artifacts, Retention: r.retention}
	if err != nil {
		r.deleteArtifacts(ctx, log, t.ID)
		full := diskFull(err)
		if !export.IsPermanent(err) && !full && t.Attempts < r.maxAttempts {
			log.WarnContext(ctx, "worker: export failed; it is tried again", "error", err,
				"attempt", t.Attempts, "maxAttempts", r.maxAttempts, "retryIn", r.retryDelay)
			r.retryLater(ctx, log, t, worker)
			return
		}
		reason := errorReason(err)
		switch {
		case full && !export.IsPermanent(err):
			// Another attempt would run to the same end: fail once.
			reason = diskFullReason
		case !export.IsPermanent(err) && t.Attempts > 1:
			reason = errorReason(fmt.Errorf("failed %d times, last: %s", t.Attempts, reason))
		}
		p = taskstore.FinishParams{ErrorReason: reason}
		log.WarnContext(ctx, "worker: export failed", "error", err, "attempt", t.Attempts)
	}
	r.finish(ctx, log, t, worker, p)
}

// retryLater gives the task back: its lease ends RetryDelay from now,
// after which any worker claims it again (one more attempt).
func (r *Runner) retryLater(ctx context.Context, log *slog.Logger, t exporttask.Task, worker string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := r.store.ReleaseForRetry(rctx, t.ID, worker, r.now(), r.retryDelay); err != nil {
		log.InfoContext(ctx, "worker: giving the task back for a retry; it is retried when its lease ends", "error", err)
	}
}

// finish records the outcome of the task. A finished export is recorded
// even when shutdown has begun meanwhile: the work is done and should not
// be repeated.
func (r *Runner) finish(ctx context.Context, log *slog.Logger, t exporttask.Task, worker string, p taskstore.FinishParams) {
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer fcancel()
	done, ferr := r.store.Finish(fctx, t.ID, worker, p, r.now())
	switch {
	case errors.Is(ferr, exporttask.ErrLeaseLost), errors.Is(ferr, taskstore.ErrNotFound):
		// ErrNotFound: the task was aborted and then dismissed.
		log.InfoContext(ctx, "worker: export finished after the task was aborted or its lease lost; outcome dropped")
		r.cleanUpLost(fctx, log, t)
	case ferr != nil:
		log.ErrorContext(ctx, "worker: recording the outcome; the task runs again when its lease ends", "error", ferr)
	default:
		log.InfoContext(ctx, "worker: export finished", "status", done.Status)
	}
}

// export calls the Exporter, turning a panic into a permanent error (see
// package guard) so one bad task cannot take the process down; the panic
// of any goroutine of the export, recovered by that goroutine, is logged
// here with its stack.
func (r *Runner) export(ctx context.Context, t exporttask.Task, out export.Output) (a []exporttask.Artifact, err error) {
	defer func() {
		var pe *guard.PanicError
		if errors.As(err, &pe) {
			r.log.ErrorContext(ctx, "worker: export panicked", "task", t.ID, "panic", pe.Value, "stack", string(pe.Stack))
		}
	}()
	defer guard.Recover(&err)
	return r.exporter.Export(ctx, t, out)
}

// maxErrorReason bounds the errorReason stored for a failed task, in bytes.
const maxErrorReason = 1024

// errorReason is the text of err (the Reason of a PermanentError, storageReason
// for an error of the artifact store) for the task's errorReason, without
// server paths or Go's vocabulary (see reason.Clean), at most
// maxErrorReason bytes, cut on a rune boundary.
func errorReason(err error) string {
	s := err.Error()
	var pe *export.PermanentError
	var se *storageError
	switch {
	case errors.As(err, &pe):
		s = pe.Reason
	case errors.As(err, &se):
		s = storageReason
	}
	if s = reason.Clean(s); s == "" {
		s = "export failed"
	}
	if len(s) <= maxErrorReason {
		return s
	}
	cut := maxErrorReason
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
