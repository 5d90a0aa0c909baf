package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// txn is a write transaction, the [storekit.Tx] of this store: the
// shared statements of [storekit.SQLTx], whose reads lock the rows they
// return (FOR UPDATE) until the transaction ends, run through conn; and
// PostgreSQL's own Claimable (turns.go), LookUp, InsertTask and AddUsage
// (tasks.go, the usage ledger).
type txn struct {
	storekit.SQLTx
	tx pgx.Tx
}

var _ storekit.Tx = txn{}

// newTx returns the write transaction over tx.
func (db *DB) newTx(tx pgx.Tx) txn {
	return txn{SQLTx: storekit.SQLTx{Conn: conn{tx}, SQL: db.sql, NoRows: pgx.ErrNoRows}, tx: tx}
}

// conn runs the statements of a write transaction: the [storekit.Conn]
// of this store.
type conn struct{ tx pgx.Tx }

// Exec runs a statement and returns how many rows it changed.
func (c conn) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := c.tx.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

// Insert runs an INSERT of one row and returns its id (RETURNING id).
func (c conn) Insert(ctx context.Context, q string, args ...any) (int64, error) {
	var id int64
	err := c.tx.QueryRow(ctx, q+" RETURNING id", args...).Scan(&id)
	return id, err
}

// Query runs a query; done closes its rows.
func (c conn) Query(ctx context.Context, q string, args ...any) (storekit.Rows, func(), error) {
	rows, err := c.tx.Query(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	return rows, rows.Close, nil
}

// QueryRow runs a query of one row.
func (c conn) QueryRow(ctx context.Context, q string, args ...any) storekit.Scanner {
	return c.tx.QueryRow(ctx, q, args...)
}
