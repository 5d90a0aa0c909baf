package sqlite

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Dismiss removes the customer's final task id, its Idempotency-Key and its
// webhook deliveries, and frees its quota; see [exporttask.Store].
func (db *DB) Dismiss(ctx context.Context, customer string, id int64) error {
	err := db.write(ctx, func(tx storekit.Tx) error {
		t, err := tx.CustomerTask(ctx, customer, id)
		if err != nil {
			return err
		}
		if !t.Status.Final() {
			return fmt.Errorf("%w: task %d is %s, not final", exporttask.ErrConflict, id, t.Status)
		}
		w := tx.(wtx)
		for _, q := range []string{
			`DELETE FROM deliveries WHERE task_id = ?`,
			`DELETE FROM idempotency_keys WHERE task_id = ?`,
			`DELETE FROM tasks WHERE id = ?`,
		} {
			if _, err := w.exec(ctx, q, id); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return tx.AddUsage(ctx, customer, -storekit.UsedBytes(t.Status, t))
	})
	if err != nil {
		return fmt.Errorf("sqlite: dismiss task %d: %w", id, err)
	}
	return nil
}
