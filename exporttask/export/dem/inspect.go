package dem

import (
	"context"
	"errors"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Inspect reads the source src names and returns what a record of it
// holds: Footprint, levels or resolution, and Source completed (absolute
// Path, Format, Size, ModTime). A source this package cannot export is a
// *export.SourceError.
//
// TODO(issue 17): being written on its own branch; this placeholder must
// not reach a release.
func Inspect(ctx context.Context, src exporttask.RecordSource) (exporttask.Record, error) {
	return exporttask.Record{}, errors.New("dem: Inspect is not written yet")
}
