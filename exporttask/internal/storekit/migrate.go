package storekit

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one schema version: a file named NNNN_name.sql.
type Migration struct {
	Version int    // NNNN, > 0
	Name    string // the file name
	SQL     string // the file's statements
}

// LoadMigrations returns the migrations in directory dir of fsys (every
// file there is one) in version order. A file name that does not start
// with a positive version and '_', or two files of one version, is an
// error.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("reading the migrations: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive version and '_'", e.Name())
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("migration %s: %w", e.Name(), err)
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("migrations %s and %s have the same version", ms[i-1].Name, ms[i].Name)
		}
	}
	return ms, nil
}

// Migrator is the database side of [Migrate], in the store's SQL.
type Migrator interface {
	// Init creates the schema_migrations table (version, name,
	// applied_at) when it does not exist.
	Init(ctx context.Context) error
	// InTx runs fn in a transaction of its own and commits it; when fn
	// fails, nothing it did is kept.
	InTx(ctx context.Context, fn func(tx MigrationTx) error) error
}

// MigrationTx is a transaction of a [Migrator].
type MigrationTx interface {
	// Applied reports whether schema_migrations has the version.
	Applied(ctx context.Context, version int) (bool, error)
	// Exec runs the statements of a migration.
	Exec(ctx context.Context, sql string) error
	// Record adds m's row to schema_migrations.
	Record(ctx context.Context, m Migration) error
}

// Migrate applies, in order, each of ms that the database has not applied
// yet, each in its own transaction together with its row in
// schema_migrations. Serialising concurrent migrations is up to the
// caller.
func Migrate(ctx context.Context, db Migrator, ms []Migration) error {
	if err := db.Init(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, m := range ms {
		err := db.InTx(ctx, func(tx MigrationTx) error {
			done, err := tx.Applied(ctx, m.Version)
			if err != nil || done {
				return err
			}
			if err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			return tx.Record(ctx, m)
		})
		if err != nil {
			return fmt.Errorf("migrate %s: %w", m.Name, err)
		}
	}
	return nil
}
