package sqlite

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Create stores a new PENDING task unless the Idempotency-Key or the dedup
// key names an existing one; see [taskstore.Store].
func (db *DB) Create(ctx context.Context, p taskstore.CreateParams) (exporttask.Task, bool, error) {
	t, replayed, err := storekit.Create(ctx, db.write, p)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("sqlite: create task: %w", err)
	}
	return t, replayed, nil
}
