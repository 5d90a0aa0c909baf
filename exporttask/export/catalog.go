package export

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// Catalog looks records up; package catalog's file catalog is one. Implementations must be safe for concurrent use.
type Catalog interface {
	// Record returns the record with the given id. An unknown id is an
	// error that wraps [catalog.ErrNotFound].
	Record(ctx context.Context, id string) (catalog.Record, error)
}
