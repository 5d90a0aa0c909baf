package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// dialect is SQLite's [storekit.Dialect]: "?" placeholders, write
// transactions run one at a time in arrival order with group commit (see
// DB.write), reads on the read pool, a full disk classified as
// exporttask.ErrStorageFull (see diskFull).
type dialect struct{ db *DB }

var _ storekit.Dialect = dialect{}

func (dialect) Name() string { return "sqlite" }

func (dialect) Placeholder(n int) string { return placeholder(n) }

func (d dialect) Write(ctx context.Context, fn func(tx storekit.Tx) error) error {
	return d.db.write(ctx, fn)
}

func (d dialect) Query(ctx context.Context, q string, args ...any) (storekit.Rows, func(), error) {
	return d.db.query(ctx, q, args...)
}

func (d dialect) TaskRow(ctx context.Context, customer string, id int64) storekit.Scanner {
	return d.db.get.QueryRowContext(ctx, id, customer)
}

func (dialect) NoRows() error { return sql.ErrNoRows }

func (d dialect) Usage(ctx context.Context, customer string) (int64, error) {
	var used int64
	err := d.db.r.QueryRowContext(ctx, qUsage, customer).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return used, err
}
