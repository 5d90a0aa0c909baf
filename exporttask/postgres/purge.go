package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Purge removes up to limit final tasks whose retention is over; see
// [taskstore.Store]. Tasks another transaction holds are left for the
// next sweep. The space of their rows is PostgreSQL's to reuse
// (autovacuum), as for any deleted row.
func (db *DB) Purge(ctx context.Context, before time.Time, limit int) ([]int64, error) {
	ids, err := storekit.Purge(ctx, db.write, before, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: purge final tasks: %w", err)
	}
	return ids, nil
}
