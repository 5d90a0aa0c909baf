package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory lock key held while migrating, so that
// replicas starting at once migrate one after the other.
const migrationLock = 0x6578_7074_6173_6b31 // "exptask1"

// migrate applies, in order, each migration newer than the database's
// schema version, each in its own transaction with its row in
// schema_migrations, while holding a session advisory lock.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := storekit.LoadMigrations(migrationFiles, "migrations")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLock)); err != nil {
		return fmt.Errorf("migrate: taking the lock: %w", err)
	}
	defer func() {
		// With a cancelled ctx the unlock may fail: closing the connection
		// then releases the lock.
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrationLock)); err != nil {
			conn.Conn().Close(context.WithoutCancel(ctx))
		}
	}()
	return storekit.Migrate(ctx, migrator{conn: conn}, ms)
}

// migrator is the [storekit.Migrator] on the connection holding the
// migration lock.
type migrator struct {
	conn *pgxpool.Conn
}

// Init creates schema_migrations when it does not exist.
func (m migrator) Init(ctx context.Context) error {
	_, err := m.conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer     PRIMARY KEY,
		name       text        NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`)
	return err
}

// InTx runs fn in a transaction of the connection.
func (m migrator) InTx(ctx context.Context, fn func(tx storekit.MigrationTx) error) error {
	return pgx.BeginFunc(ctx, m.conn, func(tx pgx.Tx) error { return fn(migrationTx{tx: tx}) })
}

// migrationTx is a [storekit.MigrationTx].
type migrationTx struct {
	tx pgx.Tx
}

// Applied reports whether schema_migrations has the version.
func (m migrationTx) Applied(ctx context.Context, version int) (bool, error) {
	var done bool
	err := m.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, version).Scan(&done)
	return done, err
}

// Exec runs the statements of a migration.
func (m migrationTx) Exec(ctx context.Context, sql string) error {
	_, err := m.tx.Exec(ctx, sql)
	return err
}

// Record adds mig's row to schema_migrations.
func (m migrationTx) Record(ctx context.Context, mig storekit.Migration) error {
	_, err := m.tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, mig.Version, mig.Name)
	return err
}
