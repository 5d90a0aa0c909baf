package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// dialect is PostgreSQL's [storekit.Dialect]: the shared SQL in
// PostgreSQL's syntax (see Open), write transactions whose rows are locked (FOR UPDATE, SKIP LOCKED where a
// claim may pass a row over) and which are run again after a
// serialization failure or a deadlock (see DB.write), reads on the pool,
// a full disk classified as exporttask.ErrStorageFull (see DB.diskFull).
type dialect struct{ db *DB }

var _ storekit.Dialect = dialect{}

func (dialect) Name() string { return "postgres" }

// Statements is the shared SQL in PostgreSQL's syntax.
func (d dialect) Statements() *storekit.Statements { return d.db.sql }

func (d dialect) Write(ctx context.Context, fn func(tx storekit.Tx) error) error {
	return d.db.write(ctx, fn)
}

// Query runs a read query on the pool; done closes its rows.
func (d dialect) Query(ctx context.Context, q string, args ...any) (storekit.Rows, func(), error) {
	rows, err := d.db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	return rows, rows.Close, nil
}

func (d dialect) TaskRow(ctx context.Context, customer string, id int64) storekit.Scanner {
	return d.db.pool.QueryRow(ctx, d.db.sql.Task(), id, customer)
}

func (dialect) NoRows() error { return pgx.ErrNoRows }

// Usage sums the customer's usage_changes rows (see qUsage).
func (d dialect) Usage(ctx context.Context, customer string) (int64, error) {
	var used, changes int64
	err := d.db.pool.QueryRow(ctx, qUsage, customer).Scan(&used, &changes)
	return used, err
}
