package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// CreateHeld runs db's create of p up to its commit, then closes inside
// and waits for release before committing: a create caught in flight.
func CreateHeld(ctx context.Context, db *DB, p exporttask.CreateParams, inside chan<- struct{}, release <-chan struct{}) (exporttask.Task, bool, error) {
	return storekit.Create(ctx, func(ctx context.Context, fn func(storekit.Tx) error) error {
		return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			if err := fn(txn{tx: tx}); err != nil {
				return err
			}
			close(inside)
			<-release
			return nil
		})
	}, p)
}
