package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// statements are prepared statements by query text. Preparing once saves
// SQLite from parsing the same SQL again in every transaction.
type statements map[string]*sql.Stmt

// prepare prepares the queries of the write transactions on the write
// connection and Get's query on the read pool. It runs after migrating,
// since preparing needs the tables.
func (db *DB) prepare(ctx context.Context) error {
	db.ws = make(statements)
	for _, q := range writeQueries() {
		s, err := db.w.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("preparing %q: %w", q, err)
		}
		db.ws[q] = s
	}
	s, err := db.r.PrepareContext(ctx, qCustomerTask)
	if err != nil {
		return fmt.Errorf("preparing %q: %w", qCustomerTask, err)
	}
	db.get = s
	return nil
}

// wtx is a write transaction, the [storekit.Tx] of this store, that runs
// the prepared statements when it has them. Its statements keep their
// context's values but not its cancellation (see [DB.begin]).
type wtx struct {
	tx *sql.Tx
	ws statements
}

var _ storekit.Tx = wtx{}

func (w wtx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if s, ok := w.ws[q]; ok {
		return w.tx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return w.tx.ExecContext(ctx, q, args...)
}

func (w wtx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	ctx = context.WithoutCancel(ctx)
	if s, ok := w.ws[q]; ok {
		return w.tx.StmtContext(ctx, s).QueryContext(ctx, args...)
	}
	return w.tx.QueryContext(ctx, q, args...)
}

func (w wtx) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	ctx = context.WithoutCancel(ctx)
	if s, ok := w.ws[q]; ok {
		return w.tx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return w.tx.QueryRowContext(ctx, q, args...)
}
