package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Expirable reads and locks up to limit expired COMPLETED tasks, skipping
// the rows another transaction holds.
func (w txn) Expirable(ctx context.Context, now int64, limit int) ([]exporttask.Task, error) {
	rows, err := w.tx.Query(ctx,
		`SELECT id, doc FROM tasks WHERE status = 'COMPLETED' AND expired_at <= $1
		 ORDER BY expired_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (exporttask.Task, error) { return storekit.ScanTask(r) })
}
