package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// timedEngine is an engine that records when each small export's Export
// started and returned, keyed by its description: the phases of a small
// export are then its wait (create to start), its run (start to return)
// and its end (return to finishedAt: the artifacts committed, the task
// stored COMPLETED).
type timedEngine struct {
	export.Engine
	mu    sync.Mutex
	spans map[string][2]time.Time
}

func (d *timedEngine) Export(ctx context.Context, j export.Job, out export.Output) ([]exporttask.Artifact, error) {
	start := time.Now()
	arts, err := d.Engine.Export(ctx, j, out)
	d.mu.Lock()
	d.spans[j.Request().Description] = [2]time.Time{start, time.Now()}
	d.mu.Unlock()
	return arts, err
}

// phases describes the wait, run and end of the small tasks (by the
// description each was created with) that finished.
func (d *timedEngine) phases(created, finished map[string]time.Time) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var wait, run, end []time.Duration
	for desc, c := range created {
		s, ok := d.spans[desc]
		f, done := finished[desc]
		if !ok || !done {
			continue
		}
		wait, run, end = append(wait, s[0].Sub(c)), append(run, s[1].Sub(s[0])), append(end, f.Sub(s[1]))
	}
	q := func(name string, ds []time.Duration) string {
		if len(ds) == 0 {
			return name + " –"
		}
		slices.Sort(ds)
		p95 := ds[min(len(ds)-1, int(0.95*float64(len(ds))+0.999999)-1)]
		return fmt.Sprintf("%s p50 %v p95 %v", name, ds[len(ds)/2].Round(10*time.Millisecond), p95.Round(10*time.Millisecond))
	}
	return strings.Join([]string{q("wait (create to Export)", wait), q("run (Export)", run), q("end (Export's return to finishedAt)", end)}, "; ")
}
