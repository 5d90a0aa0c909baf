package worker

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// taskOutput is the [export.Output] a worker hands to the exporter:
// files go to the artifact store under the task's prefix; progress is
// reported to the store as a percentage that covers both the export's
// own progress (done out of total, up to exportShare) and the bytes
// stored (the rest, against the task's estimated size).
type taskOutput struct {
	store  artifact.Store
	taskID int64
	report func(percent int) error
	// expected is the bytes the export is expected to store: the task's
	// estimated size. Not positive: storing adds nothing to the progress.
	expected int64

	mu       sync.Mutex
	exported int   // the export's own progress, percent
	stored   int64 // bytes written or taken into the store
	reported int   // the last percentage reported
}

var _ export.Output = (*taskOutput)(nil)

// Create starts the file name of the task in the artifact store. name must
// be a plain file name (no slash). The store's errors, from Create and
// from the writer, are marked so that the task's errorReason does not
// repeat them (see storageReason); the bytes written count towards the
// task's progress.
func (o *taskOutput) Create(ctx context.Context, name string) (artifact.Writer, error) {
	if strings.Contains(name, "/") {
		return nil, fmt.Errorf("worker: task %d: artifact name %q contains a slash", o.taskID, name)
	}
	w, err := o.store.Create(ctx, artifactkey.Key(o.taskID, name))
	if err != nil {
		return nil, markStorage(fmt.Errorf("worker: task %d: creating artifact %q: %w", o.taskID, name, err))
	}
	return storageWriter{w: w, stored: o.addStored}, nil
}

// exportShare is the part of a task's progress that the export's own
// reports cover, in percent: the export's 100% is the task's 90%. The
// rest is the bytes stored against the estimated size, up to 99% until
// the task is COMPLETED (100%).
const exportShare = 90

// Progress reports done out of total as the export's own progress and
// the task's progress with it (see exportShare).
func (o *taskOutput) Progress(done, total int64) error {
	o.mu.Lock()
	o.exported = percent(done, total)
	p := o.percentLocked()
	o.reported = max(o.reported, p)
	o.mu.Unlock()
	return o.report(p)
}

// addStored counts n more bytes stored and reports the task's progress
// when its percentage grew; its error is the report's (the task was
// aborted or its lease lost: the write stops).
func (o *taskOutput) addStored(n int64) error {
	o.mu.Lock()
	o.stored += n
	p := o.percentLocked()
	grew := p > o.reported
	if grew {
		o.reported = p
	}
	o.mu.Unlock()
	if !grew {
		return nil
	}
	return o.report(p)
}

// percentLocked is the task's progress: exportShare of the export's own,
// the rest by bytes stored, at most 99. mu is held.
func (o *taskOutput) percentLocked() int {
	p := o.exported * exportShare / 100
	if o.expected > 0 {
		p += int(min(o.stored, o.expected) * (100 - exportShare) / o.expected)
	}
	return min(p, 99)
}

// percent is done/total in whole percent, within 0..100.
func percent(done, total int64) int {
	if total <= 0 || done <= 0 {
		return 0
	}
	if done >= total {
		return 100
	}
	return int(done * 100 / total)
}
