package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"
)

// pgSchema creates a schema for one run in the database of dsn, so that
// what earlier runs or tests left there does not weigh on this one. It
// returns a DSN that uses the schema and a function that drops it.
func pgSchema(ctx context.Context, dsn string) (string, func() error, error) {
	var b [6]byte
	_, _ = rand.Read(b[:]) // never fails (Go 1.24+)
	schema := "load_" + hex.EncodeToString(b[:])
	exec := func(ctx context.Context, sql string) error {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return fmt.Errorf("connecting to PostgreSQL: %w", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
		return nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "", nil, fmt.Errorf("reading the PostgreSQL DSN: %w", err)
	}
	if err := exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	drop := func() error { return exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") }
	return u.String(), drop, nil
}
