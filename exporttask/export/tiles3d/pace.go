package tiles3d

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask/export"
)

// paced runs fn, one chunk of an export's CPU work (a zip entry, a mesh
// decoded, a thumbnail drawn), in a turn at CPU work: when the worker
// paces the export (a large one while small ones run, see
// export.Pace), fn waits for its turn. fn must not wait for another
// chunk.
func paced(ctx context.Context, fn func() error) error {
	done, err := export.Pace(ctx)
	if err != nil {
		return err
	}
	defer done()
	return fn()
}
