package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
)

var _ exporttask.IdempotencyKeyFinder = (*DB)(nil)

// TaskByIdempotencyKey returns the customer's task created with key; see
// [exporttask.IdempotencyKeyFinder].
func (db *DB) TaskByIdempotencyKey(ctx context.Context, customer, key string) (exporttask.Task, error) {
	var id int64
	err := db.r.QueryRowContext(ctx, qIdempotencyKey, customer, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return exporttask.Task{}, fmt.Errorf("sqlite: idempotency key: %w", exporttask.ErrNotFound)
	}
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("sqlite: reading idempotency key: %w", err)
	}
	return db.Get(ctx, customer, id)
}
