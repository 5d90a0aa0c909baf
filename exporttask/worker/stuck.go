package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// DefaultStopGrace is the default of [RunnerConfig.StopGrace].
const DefaultStopGrace = 5 * time.Second

// exportResult is what an export returned.
type exportResult struct {
	artifacts []exporttask.Artifact
	err       error
}

// exportBounded runs the export and returns what it returns, but once ctx
// is done (the task aborted, its lease lost, shutdown) it waits at most
// StopGrace (of the Runner's clock) for the export to stop: an export stuck in a read that ignores
// its context would otherwise hold its worker, and with it a slot of the
// process, for as long as the read lasts. The export is then left behind
// (its goroutine ends when the read does; what it writes goes under a
// prefix the runner has given up) and an error wrapping ctx's cause is
// returned.
func (r *Runner) exportBounded(ctx context.Context, t exporttask.Task, out export.Output) ([]exporttask.Artifact, error) {
	done := make(chan exportResult, 1)
	go func() {
		a, err := r.export(ctx, t, out)
		done <- exportResult{a, err}
	}()
	select {
	case res := <-done:
		return res.artifacts, res.err
	case <-ctx.Done():
	}
	grace := r.clock.NewTimer(r.stopGrace)
	defer grace.Stop()
	select {
	case res := <-done:
		return res.artifacts, res.err
	case <-grace.C():
		r.log.ErrorContext(ctx, "worker: the export did not stop after its cancellation; its worker moves on without it",
			"task", t.ID, "grace", r.stopGrace)
		return nil, fmt.Errorf("worker: task %d: the export did not stop within %s of its cancellation: %w",
			t.ID, r.stopGrace, context.Cause(ctx))
	}
}
