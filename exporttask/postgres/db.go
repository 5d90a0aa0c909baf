package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// DB is an [taskstore.Store] on a PostgreSQL database. It is safe for
// concurrent use, also by several processes. Create it with [Open].
//
// Its methods are those of [taskstore.Store], which says what each does:
// Create, Purge, ReleaseLeases, Ping and Close are this package's, the
// others those of the embedded SQL store.
// Claim and ClaimDeliveries skip the rows another transaction is claiming
// rather than wait for them (see the package doc); Expire, like Purge,
// leaves the tasks another transaction holds for the next sweep.
type DB struct {
	// SQLStore is the SQL store that packages sqlite and postgres
	// share, over this package's dialect (see dialect.go): it carries
	// out every method of the contract that this package does not write
	// itself (go doc ./internal/storekit SQLStore lists them); they are
	// DB's methods.
	*storekit.SQLStore
	pool *pgxpool.Pool
	sql  *storekit.Statements // the shared SQL in PostgreSQL's syntax
	// inserter inserts the creates without a quota in batches (see
	// insertBatch), on insertPool's connections.
	inserter   *storekit.Batcher[*newTask]
	insertPool *pgxpool.Pool
	// fullAt is when (Unix nanoseconds) a write last met a full disk; 0:
	// never. Ping reports the store unable to write for fullDiskHold
	// after.
	fullAt       atomic.Int64
	fullDiskHold time.Duration
}

var _ taskstore.Store = (*DB)(nil)

// defaultMaxConns is the pool size when the dsn sets no pool_max_conns.
const defaultMaxConns = 16

// Open connects to the PostgreSQL database dsn (a URL or key=value
// string, as pgx accepts; pool_max_conns defaults to 16) and migrates its
// schema to the current version. Besides that pool, the store opens up to
// 2 connections of its own to insert new tasks (see Create).
//
// Options: [WithMaxRunningPerCustomer], [WithFullDiskHold].
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The parse error may quote the dsn, password included: leave it out.
		return nil, errors.New("postgres: open: the dsn is not valid")
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = defaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	// PostgreSQL's syntax: $n placeholders, the locking clauses kept
	// (FOR UPDATE, SKIP LOCKED where a claim may pass a row over), lists
	// as arrays.
	db := &DB{pool: pool, fullDiskHold: o.fullDiskHold, sql: storekit.NewStatements(storekit.Syntax{Dollar: true, Locks: true})}
	db.SQLStore = storekit.NewSQLStore(dialect{db}, o.MaxRunning)
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if db.insertPool, err = pgxpool.NewWithConfig(ctx, insertPoolConfig(cfg)); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	db.inserter = storekit.NewBatcher(insertLanes, maxInsertBatch, db.insertBatch)
	return db, nil
}

// Ping reports whether the database answers and can write: it rewrites the
// heartbeat row, and reports a full disk when a write of this store met
// one (disk_full, SQLSTATE 53100) less than [DefaultFullDiskHold] ago
// (see [WithFullDiskHold]). The
// heartbeat alone cannot tell: it rewrites a row in place, which a full
// disk often still allows while inserts fail. A full disk is an error
// wrapping [exporttask.ErrStorageFull].
func (db *DB) Ping(ctx context.Context) error {
	_, err := db.pool.Exec(ctx, `UPDATE heartbeat SET at = $1 WHERE id = 1`, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("postgres: ping: writing the heartbeat: %w", db.diskFull(err))
	}
	if at := db.fullAt.Load(); at != 0 {
		if ago := time.Since(time.Unix(0, at)); ago < db.fullDiskHold {
			return exporttask.StorageFull(fmt.Errorf("postgres: ping: a write found the disk full %s ago",
				ago.Round(time.Millisecond)))
		}
	}
	return nil
}

// DefaultFullDiskHold is how long [DB.Ping] reports a full disk after a
// write of the store met one, unless [WithFullDiskHold] says otherwise.
// Past it, Ping answers as the heartbeat does until the next write that
// fails for the same reason.
const DefaultFullDiskHold = 30 * time.Second

// diskFull marks err with [exporttask.ErrStorageFull], and notes the time
// for Ping, when PostgreSQL refused a write for a full disk.
func (db *DB) diskFull(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "53100" { // disk_full
		db.fullAt.Store(time.Now().UnixNano())
		return exporttask.StorageFull(err)
	}
	return err
}

// ReleaseLeases ends the leases of the IN_PROGRESS tasks whose worker's
// name starts with prefix; see [taskstore.Store].
func (db *DB) ReleaseLeases(ctx context.Context, prefix string) (int, error) {
	if prefix == "" {
		return 0, errors.New("postgres: release leases: empty prefix")
	}
	tag, err := db.pool.Exec(ctx, `UPDATE tasks SET lease_until = 0
		 WHERE status = 'IN_PROGRESS' AND lease_until > 0 AND substr(lease_owner, 1, length($1)) = $1`, prefix)
	if err != nil {
		return 0, fmt.Errorf("postgres: release leases of %q: %w", prefix, err)
	}
	return int(tag.RowsAffected()), nil
}

// Close waits for the creates already queued to be inserted, then closes
// every connection of the pool. Creates asked after Close fail.
func (db *DB) Close() error {
	db.inserter.Close()
	db.insertPool.Close()
	db.pool.Close()
	return nil
}

// maxAttempts bounds the retries of a transaction that lost a deadlock or
// serialisation race.
const maxAttempts = 5

// write runs fn in a transaction and commits it: the [storekit.Write] of
// this store. When fn fails, nothing it did is kept; a full disk's error
// wraps [exporttask.ErrStorageFull]. A transaction that
// PostgreSQL aborted to break a deadlock or a serialisation conflict is run
// again, so fn must start from scratch each time.
func (db *DB) write(ctx context.Context, fn func(tx storekit.Tx) error) error {
	var err error
	for range maxAttempts {
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return fn(db.newTx(tx)) })
		if !retryable(err) {
			return db.diskFull(err)
		}
	}
	return err
}

// writeCreate is write for Create: it also runs fn again when its insert
// failed on a unique index (a concurrent create of the same export or
// Idempotency-Key committed first), so that the new run finds the winner.
func (db *DB) writeCreate(ctx context.Context, fn func(tx storekit.Tx) error) error {
	var err error
	for range maxAttempts {
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error { return fn(db.newTx(tx)) })
		if !retryable(err) && !uniqueViolation(err) {
			return db.diskFull(err)
		}
	}
	return err
}

// retryable reports whether err is a transaction PostgreSQL rolled back
// because of a race with another one.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == "40P01" || pgErr.Code == "40001" // deadlock_detected, serialization_failure
}

// uniqueViolation reports whether err is an insert refused by a unique
// index.
func uniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
