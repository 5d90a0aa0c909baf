package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// Crash attribution. When a process dies (an out-of-memory kill, a fatal
// runtime error, a signal), every task it was running keeps its lease and
// is claimed again later with one more attempt; the store cannot tell
// which of them killed the process. So a task claimed again (Attempts > 1:
// after a crash or a transient failure) runs alone in its process: the
// worker that claimed it waits, renewing its lease, until the tasks
// already running in the process end, and no other worker of the process
// claims anything until it is done, except that the workers reserved for
// small tasks go on claiming while the general workers' tasks drain (see
// gate). Before the lone attempt starts, the
// runner writes a marker file, [aloneMarker], into the artifact store
// under the task's prefix, and removes it when the attempt ends in any
// way the runner sees (outcome, retry, lease lost, shutdown). A task
// claimed while its marker exists ran alone and its process died under
// it: it is the cause, and it is FAILED at once, without another attempt
// (a crash loop is not resumed). A task that was merely running beside
// the culprit when the process died loses one attempt, its shared first
// one, and then runs alone: it is never failed for another task's crash.

// aloneMarker is the name of the file that marks a task's lone attempt in
// progress (see above). Exporters' artifact names never start with it.
const aloneMarker = "attempt-running-alone"

// crashedReason is the errorReason of a task whose lone attempt ended
// with its process.
const crashedReason = "the export stopped the server while it ran; it is not tried again"

// gate lets a worker run a task alone in its process while the other
// workers go on claiming where that cannot hold it up. A task claimed
// for a lone attempt waits until no other task runs; while it waits, the
// general workers claim nothing (so the tasks they run drain), and the
// workers reserved for small tasks go on claiming while a general worker
// still runs a task: a small export of another customer is not held up
// for as long as the large exports take to end, and once they have ended
// the lone attempt waits at most for the small tasks then running. The
// state is guarded by mu; claim serialises the store claims, so that a
// claim and the count of what runs change together.
type gate struct {
	claim   sync.Mutex
	mu      sync.Mutex
	general int           // tasks running on general workers, shared
	small   int           // tasks running on small workers, shared
	waiting int           // tasks claimed for a lone attempt, not yet started
	alone   bool          // a lone attempt runs
	changed chan struct{} // closed and replaced at every change of the counts
}

// mayClaim reports whether a worker of lane l may claim now.
func (g *gate) mayClaim(l lane) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.alone:
		return false
	case g.waiting > 0:
		return l.small && g.general > 0
	}
	return true
}

// update changes the counts under mu and wakes those waiting on them.
func (g *gate) update(fn func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fn()
	if g.changed != nil {
		close(g.changed)
	}
	g.changed = make(chan struct{})
}

// startAlone starts the lone attempt if nothing else runs; otherwise it
// returns a channel closed at the next change.
func (g *gate) startAlone() (started bool, next <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	if g.alone || g.general > 0 || g.small > 0 {
		return false, g.changed
	}
	g.alone = true
	g.waiting--
	return true, nil
}

// claimTask claims a task of lane l for worker and takes its place in the
// gate: a first attempt shares the process, an attempt after the first
// waits (renewing its lease) until it is alone. ok is false when there is
// nothing to run (or ctx ended while waiting: the task keeps its lease
// and is claimed again when it ends, as after any shutdown). release
// gives the place back; it is nil unless ok.
func (r *Runner) claimTask(ctx context.Context, worker string, l lane) (t exporttask.Task, alone bool, release func(), err error) {
	g := &r.gate
	g.claim.Lock()
	if !g.mayClaim(l) {
		g.claim.Unlock()
		return exporttask.Task{}, false, nil, nil
	}
	t, ok, err := r.claim(ctx, worker, l)
	if err != nil || !ok {
		g.claim.Unlock()
		return exporttask.Task{}, false, nil, err
	}
	count := &g.general
	if l.small {
		count = &g.small
	}
	if t.Attempts <= 1 {
		g.update(func() { *count++ })
		g.claim.Unlock()
		return t, false, func() { g.update(func() { *count-- }) }, nil
	}
	g.update(func() { g.waiting++ })
	g.claim.Unlock()
	// The attempt starts again from nothing: the task shows 0% from now
	// on, not where the interrupted attempt left it, while it waits.
	if t.Progress != 0 {
		if _, err := r.store.Progress(ctx, t.ID, worker, 0, r.now(), r.lease); err != nil {
			r.log.WarnContext(ctx, "worker: resetting the progress of a task waiting to run alone", "task", t.ID, "error", err)
		} else {
			t.Progress = 0
		}
	}
	tick := r.clock.NewTimer(renewEvery(r.lease))
	defer func() { tick.Stop() }()
	for {
		started, next := g.startAlone()
		if started {
			return t, true, func() {
				g.update(func() { g.alone = false })
				r.wakeup.Notify() // the workers that held back claim again
			}, nil
		}
		select {
		case <-next:
		case <-ctx.Done():
			g.update(func() { g.waiting-- })
			return exporttask.Task{}, false, nil, nil
		case <-tick.C():
			if _, err := r.store.Progress(ctx, t.ID, worker, t.Progress, r.now(), r.lease); err != nil && ctx.Err() == nil {
				r.log.WarnContext(ctx, "worker: renewing the lease of a task waiting to run alone", "task", t.ID, "error", err)
			}
			tick = r.clock.NewTimer(renewEvery(r.lease))
		}
	}
}

// crashedAlone reports whether the task's marker of a lone attempt is
// there: its last attempt ran alone and its process died. A store that
// cannot say is taken to say no (the attempt limit still applies).
func (r *Runner) crashedAlone(ctx context.Context, log *slog.Logger, id int64) bool {
	o, err := r.artifacts.Open(ctx, artifactkey.Key(id, aloneMarker))
	switch {
	case err == nil:
		_ = o.Close()
		return true
	case !errors.Is(err, artifact.ErrNotFound):
		log.WarnContext(ctx, "worker: reading the marker of a lone attempt", "error", err)
	}
	return false
}

// markAlone writes the task's marker of a lone attempt; failing, it logs
// and the attempt runs unmarked.
func (r *Runner) markAlone(ctx context.Context, log *slog.Logger, id int64) {
	if err := writeMarker(ctx, r.artifacts, artifactkey.Key(id, aloneMarker)); err != nil {
		log.WarnContext(ctx, "worker: writing the marker of a lone attempt", "error", err)
	}
}

// unmarkAlone removes the task's marker of a lone attempt, also after
// shutdown has begun.
func (r *Runner) unmarkAlone(ctx context.Context, log *slog.Logger, id int64) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := r.artifacts.DeletePrefix(dctx, artifactkey.Key(id, aloneMarker)); err != nil {
		log.WarnContext(ctx, "worker: removing the marker of a lone attempt", "error", err)
	}
}

// writeMarker commits an empty file at key.
func writeMarker(ctx context.Context, s artifact.Store, key string) error {
	w, err := s.Create(ctx, key)
	if err != nil {
		return fmt.Errorf("creating %s: %w", key, err)
	}
	defer func() { _ = w.Abort() }()
	if _, err := w.Commit(); err != nil {
		return fmt.Errorf("committing %s: %w", key, err)
	}
	return nil
}
