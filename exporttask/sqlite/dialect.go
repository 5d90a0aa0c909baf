package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// dialect is SQLite's [storekit.Dialect]: the shared SQL in SQLite's
// syntax (see Open), write transactions run one at a time in arrival
// order with group commit (see DB.write), reads on the read pool, a full
// disk classified as exporttask.ErrStorageFull (see diskFull).
type dialect struct{ db *DB }

var _ storekit.Dialect = dialect{}

func (dialect) Name() string { return "sqlite" }

// Statements is the shared SQL in SQLite's syntax.
func (d dialect) Statements() *storekit.Statements { return d.db.sql }

func (d dialect) Write(ctx context.Context, fn func(tx storekit.Tx) error) error {
	return d.db.write(ctx, fn)
}

// Query runs a read query on the read pool; done closes its rows.
func (d dialect) Query(ctx context.Context, q string, args ...any) (storekit.Rows, func(), error) {
	rows, err := d.db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	return rows, func() { rows.Close() }, nil
}

// TaskRow reads the task with the statement prepared on the read pool.
func (d dialect) TaskRow(ctx context.Context, customer string, id int64) storekit.Scanner {
	return d.db.get.QueryRowContext(ctx, id, customer)
}

func (dialect) NoRows() error { return sql.ErrNoRows }

// Usage reads the customer_usage row; none is 0.
func (d dialect) Usage(ctx context.Context, customer string) (int64, error) {
	var used int64
	err := d.db.r.QueryRowContext(ctx, d.db.sql.Usage(), customer).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return used, err
}
