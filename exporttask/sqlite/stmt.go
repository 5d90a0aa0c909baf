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
	for _, q := range db.writeQueries() {
		s, err := db.w.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("preparing %q: %w", q, err)
		}
		db.ws[q] = s
	}
	s, err := db.r.PrepareContext(ctx, db.sql.Task())
	if err != nil {
		return fmt.Errorf("preparing %q: %w", db.sql.Task(), err)
	}
	db.get = s
	return nil
}

// wtx is a write transaction, the [storekit.Tx] of this store: the
// shared statements of [storekit.SQLTx] and SQLite's Claimable, run
// through conn.
type wtx struct {
	storekit.SQLTx
	c conn
}

var _ storekit.Tx = wtx{}

// newTx returns the write transaction over tx.
func (db *DB) newTx(tx *sql.Tx) wtx {
	c := conn{tx: tx, ws: db.ws}
	return wtx{SQLTx: storekit.SQLTx{Conn: c, SQL: db.sql, NoRows: sql.ErrNoRows}, c: c}
}

// conn runs the statements of a write transaction, prepared ones when it
// has them: the [storekit.Conn] of this store. Its statements keep their
// context's values but not its cancellation (see [DB.begin]).
type conn struct {
	tx *sql.Tx
	ws statements
}

func (c conn) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if s, ok := c.ws[q]; ok {
		return c.tx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return c.tx.ExecContext(ctx, q, args...)
}

func (c conn) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	ctx = context.WithoutCancel(ctx)
	if s, ok := c.ws[q]; ok {
		return c.tx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return c.tx.QueryRowContext(ctx, q, args...)
}

// Exec runs a statement and returns how many rows it changed.
func (c conn) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := c.exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Insert runs an INSERT of one row and returns its rowid.
func (c conn) Insert(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := c.exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// Query runs a query; done closes its rows.
func (c conn) Query(ctx context.Context, q string, args ...any) (storekit.Rows, func(), error) {
	ctx = context.WithoutCancel(ctx)
	var (
		rows *sql.Rows
		err  error
	)
	if s, ok := c.ws[q]; ok {
		rows, err = c.tx.StmtContext(ctx, s).QueryContext(ctx, args...)
	} else {
		rows, err = c.tx.QueryContext(ctx, q, args...)
	}
	if err != nil {
		return nil, nil, err
	}
	return rows, func() { rows.Close() }, nil
}

// QueryRow runs a query of one row.
func (c conn) QueryRow(ctx context.Context, q string, args ...any) storekit.Scanner {
	return c.queryRow(ctx, q, args...)
}
