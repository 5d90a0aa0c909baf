package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
)

var _ exporttask.IdempotencyKeyFinder = (*DB)(nil)

// TaskByIdempotencyKey returns the customer's task created with key; see
// [exporttask.IdempotencyKeyFinder].
func (db *DB) TaskByIdempotencyKey(ctx context.Context, customer, key string) (exporttask.Task, error) {
	var id int64
	err := db.pool.QueryRow(ctx,
		`SELECT task_id FROM idempotency_keys WHERE customer = $1 AND key = $2`, customer, key).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, fmt.Errorf("postgres: idempotency key: %w", exporttask.ErrNotFound)
	}
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: reading idempotency key: %w", err)
	}
	return db.Get(ctx, customer, id)
}
