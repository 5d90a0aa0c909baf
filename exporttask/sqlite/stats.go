package sqlite

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Stats counts the tasks by status and the pending and given-up webhook
// deliveries; see [taskstore.Store].
func (db *DB) Stats(ctx context.Context) (taskstore.Stats, error) {
	st, err := storekit.Stats(ctx, db.query)
	if err != nil {
		return taskstore.Stats{}, fmt.Errorf("sqlite: %w", err)
	}
	return st, nil
}
