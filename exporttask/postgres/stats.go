package postgres

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

var _ exporttask.StatsReader = (*DB)(nil)

// Stats counts the tasks by status and the pending and given-up webhook
// deliveries; see [exporttask.StatsReader].
func (db *DB) Stats(ctx context.Context) (exporttask.StoreStats, error) {
	st, err := storekit.Stats(ctx, db.query)
	if err != nil {
		return exporttask.StoreStats{}, fmt.Errorf("postgres: %w", err)
	}
	return st, nil
}
