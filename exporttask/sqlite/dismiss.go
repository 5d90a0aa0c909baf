package sqlite

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Dismiss removes the customer's final task id, its Idempotency-Key and its
// webhook deliveries, and frees its quota; see [taskstore.Store].
func (db *DB) Dismiss(ctx context.Context, customer string, id int64) error {
	if err := storekit.Dismiss(ctx, db.write, customer, id); err != nil {
		return fmt.Errorf("sqlite: dismiss task %d: %w", id, err)
	}
	return nil
}
