package worker

import (
	"context"
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// taskOutput is the [exporttask.Output] a worker hands to the exporter: files
// go to the artifact store under the task's prefix, progress (done out of
// total) is reported to the store as a percentage.
type taskOutput struct {
	store  artifact.Store
	taskID int64
	report func(percent int) error
}

var _ exporttask.Output = (*taskOutput)(nil)

// Create starts the file name of the task in the artifact store. name must
// be a plain file name (no slash). The store's errors, from Create and
// from the writer, are marked so that the task's errorReason does not
// repeat them (see storageReason).
func (o *taskOutput) Create(ctx context.Context, name string) (exporttask.ArtifactWriter, error) {
	if strings.Contains(name, "/") {
		return nil, fmt.Errorf("worker: task %d: artifact name %q contains a slash", o.taskID, name)
	}
	w, err := o.store.Create(ctx, artifactkey.Key(o.taskID, name))
	if err != nil {
		return nil, markStorage(fmt.Errorf("worker: task %d: creating artifact %q: %w", o.taskID, name, err))
	}
	return storageWriter{w: w}, nil
}

// exportShare is the part of a task's progress that the export's own
// reports cover, in percent: the export's 100% is the task's 90%, and the
// last 10% are storing the files, reached when the task is COMPLETED.
const exportShare = 90

// Progress reports done out of total as the task's progress: the
// percentage (0 when total is not positive, within 0..100) scaled to
// 0..exportShare.
func (o *taskOutput) Progress(done, total int64) error {
	return o.report(percent(done, total) * exportShare / 100)
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
