package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate applies, in order, each migration newer than the database's
// schema version, each in its own write transaction together with its row
// in schema_migrations. The write lock makes concurrent Opens of one file
// apply each migration once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := storekit.LoadMigrations(migrationFiles, "migrations")
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return storekit.Migrate(ctx, migrator{db: db}, ms)
}

// migrator is the [storekit.Migrator] of a DB, on its write connection.
type migrator struct {
	db *DB
}

// Init creates schema_migrations when it does not exist.
func (m migrator) Init(ctx context.Context) error {
	_, err := m.db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL,
		applied_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
	)`)
	return err
}

// InTx runs fn in a write transaction.
func (m migrator) InTx(ctx context.Context, fn func(tx storekit.MigrationTx) error) error {
	return m.db.begin(ctx, func(tx *sql.Tx) error { return fn(migrationTx{tx: tx}) })
}

// migrationTx is a [storekit.MigrationTx].
type migrationTx struct {
	tx *sql.Tx
}

// Applied reports whether schema_migrations has the version.
func (m migrationTx) Applied(ctx context.Context, version int) (bool, error) {
	var done bool
	err := m.tx.QueryRowContext(context.WithoutCancel(ctx),
		`SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, version).Scan(&done)
	return done, err
}

// Exec runs the statements of a migration.
func (m migrationTx) Exec(ctx context.Context, sql string) error {
	_, err := m.tx.ExecContext(context.WithoutCancel(ctx), sql)
	return err
}

// Record adds mig's row to schema_migrations.
func (m migrationTx) Record(ctx context.Context, mig storekit.Migration) error {
	_, err := m.tx.ExecContext(context.WithoutCancel(ctx),
		`INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, mig.Version, mig.Name)
	return err
}
