package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// TaskByIdempotencyKey returns the customer's task created with key when
// req is the request the key was recorded with; see
// [taskstore.Store].
func (db *DB) TaskByIdempotencyKey(ctx context.Context, customer, key string, req exporttask.CreateRequest) (exporttask.Task, error) {
	var (
		id     int64
		stored string
	)
	err := db.pool.QueryRow(ctx,
		`SELECT task_id, fingerprint FROM idempotency_keys WHERE customer = $1 AND key = $2`, customer, key).Scan(&id, &stored)
	if errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, fmt.Errorf("postgres: idempotency key: %w", exporttask.ErrNotFound)
	}
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: reading idempotency key: %w", err)
	}
	t, err := db.Get(ctx, customer, id)
	if err != nil {
		return exporttask.Task{}, err
	}
	fp, err := storekit.RequestFingerprint(req)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: idempotency key: %w", err)
	}
	if err := storekit.CheckIdempotentRequest(key, t, stored, fp, req, ""); err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: idempotency key: %w", err)
	}
	return t, nil
}
