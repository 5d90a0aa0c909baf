package export

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

// Output is where an export writes: the task's artifact files, which land
// in the artifact store under the task's prefix, and its progress.
type Output interface {
	// Create starts the artifact file name (no slashes), part of the task
	// once committed.
	Create(ctx context.Context, name string) (artifact.Writer, error)
	// Progress reports done units of work out of total; an error means
	// stop and return it (the task was aborted or its lease lost).
	Progress(done, total int64) error
}
