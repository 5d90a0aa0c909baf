package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	sqlitedriver "modernc.org/sqlite" // registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// DB is an [taskstore.Store] on a SQLite database. It is safe for
// concurrent use. Create it with [Open].
//
// Its methods are those of [taskstore.Store], which says what each does:
// Create, Purge, ReleaseLeases, Ping and Close are this package's, the
// others those of the embedded SQL store.
type DB struct {
	// SQLStore is the SQL store that packages sqlite and postgres
	// share, over this package's dialect (see dialect.go): it carries
	// out every method of the contract that this package does not write
	// itself (go doc ./internal/storekit SQLStore lists them); they are
	// DB's methods.
	*storekit.SQLStore
	w *sql.DB // writes: a single connection
	r *sql.DB // reads; the same as w for an in-memory database
	// wr runs the write transactions, one at a time and in arrival
	// order, committing the writes that queue up meanwhile together
	// (group commit, see writer).
	wr  *writer
	sql *storekit.Statements // the shared SQL in SQLite's syntax
	ws  statements           // prepared on w
	get *sql.Stmt            // prepared on r
	// anchor keeps an in-memory database alive: it is one open connection
	// to it, so that the database outlives any connection that
	// database/sql discards and reopens (after an interrupted statement,
	// say). Nil for a file.
	anchor *sql.DB
	// dir is the directory of the database file, whose free space Ping
	// checks; empty for an in-memory database.
	dir string
}

var _ taskstore.Store = (*DB)(nil)

// Memory is the dsn that asks [Open] for a private in-memory database.
const Memory = ":memory:"

// Open opens (creating it if needed) the SQLite database dsn, a file path or
// [Memory], and migrates its schema to the current version. Each Open of
// [Memory] gets a fresh, empty database that lives until Close.
//
// A path may also be a "file:" URI; its query parameters are kept. A
// "file::memory:" URI is taken as [Memory].
//
// Options: [WithMaxRunningPerCustomer].
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	if dsn == "" {
		return nil, errors.New("sqlite: open: empty dsn")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	if err := checkDir(dsn); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	db, err := open(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	// SQLite's syntax: ?n placeholders as they are, no locking clauses
	// (write transactions run one at a time, see DB.write), lists as JSON
	// arrays read with json_each.
	db.sql = storekit.NewStatements(storekit.Syntax{JSONLists: true})
	db.SQLStore = storekit.NewSQLStore(dialect{db}, o.MaxRunning)
	if err := db.autoVacuumNew(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	if err := db.incrementalVacuum(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	if err := db.prepare(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", dsn, err)
	}
	if db.anchor == nil {
		var file string
		if err := db.w.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
			db.Close()
			return nil, fmt.Errorf("sqlite: open %s: reading the database's file name: %w", dsn, err)
		}
		if file != "" {
			db.dir = filepath.Dir(file)
		}
	}
	return db, nil
}

func open(dsn string) (*DB, error) {
	const common = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	if dsn == Memory || strings.HasPrefix(dsn, "file::memory:") {
		// A database of its own, named at random and shared by the
		// connections of this DB only: one connection does the reads and
		// writes, and the anchor holds the database open meanwhile.
		name := make([]byte, 12)
		_, _ = rand.Read(name) // never fails (Go 1.24+)
		uri := "file:exporttask-" + hex.EncodeToString(name) + "?mode=memory&cache=shared&" + common
		anchor, err := sql.Open("sqlite", uri)
		if err != nil {
			return nil, err
		}
		anchor.SetMaxOpenConns(1)
		anchor.SetMaxIdleConns(1)
		anchor.SetConnMaxLifetime(0)
		anchor.SetConnMaxIdleTime(0)
		if err := anchor.Ping(); err != nil {
			anchor.Close()
			return nil, err
		}
		w, err := sql.Open("sqlite", uri+"&_txlock=immediate")
		if err != nil {
			anchor.Close()
			return nil, err
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		w.SetConnMaxLifetime(0)
		w.SetConnMaxIdleTime(0)
		return &DB{w: w, r: w, wr: startWriter(w), anchor: anchor}, nil
	}

	sep := "?"
	if strings.HasPrefix(dsn, "file:") && strings.Contains(dsn, "?") {
		sep = "&"
	} else if strings.Contains(dsn, "?") {
		return nil, errors.New("a file path must not contain '?' (use a file: URI)")
	}
	base := dsn + sep + common + "&_pragma=journal_mode(WAL)"
	if !strings.Contains(strings.ToLower(dsn), "synchronous(") {
		base += "&_pragma=synchronous(FULL)"
	}

	// The WAL is truncated to walSizeLimit after a checkpoint, so one
	// large write does not leave it large.
	w, err := sql.Open("sqlite", base+"&_txlock=immediate&_pragma=journal_size_limit("+strconv.Itoa(walSizeLimit)+")")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)

	r, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	n := max(4, 2*runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	return &DB{w: w, r: r, wr: startWriter(w)}, nil
}

// walSizeLimit is the journal_size_limit of a database file, in bytes:
// the size the WAL file is truncated to after a checkpoint.
const walSizeLimit = 16 << 20

// autoVacuumNew sets auto_vacuum = INCREMENTAL on a new database file, so
// that PRAGMA incremental_vacuum gives the pages of deleted rows back to
// the file system (see reclaim): it must be set before the first table.
func (db *DB) autoVacuumNew(ctx context.Context) error {
	if db.anchor != nil {
		return nil
	}
	var tables int
	if err := db.w.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
		return fmt.Errorf("reading the schema: %w", err)
	}
	if tables > 0 {
		return nil
	}
	if _, err := db.w.ExecContext(ctx, `PRAGMA auto_vacuum = INCREMENTAL`); err != nil {
		return fmt.Errorf("setting auto_vacuum: %w", err)
	}
	return nil
}

// incrementalVacuum makes sure that a database file has auto_vacuum =
// INCREMENTAL, which reclaim needs: a file created before this store set
// it at creation has none, and is rewritten once by VACUUM, which is the
// only way to switch an existing file (it takes about as long as copying
// the file, needs as much free disk, and holds the write lock meanwhile).
// Nothing for an in-memory database, nor for a file opened read-only.
func (db *DB) incrementalVacuum(ctx context.Context) error {
	if db.anchor != nil {
		return nil
	}
	var mode int
	if err := db.w.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&mode); err != nil {
		return fmt.Errorf("reading auto_vacuum: %w", err)
	}
	const incremental = 2
	if mode == incremental {
		return nil
	}
	if _, err := db.w.ExecContext(ctx, `PRAGMA auto_vacuum = INCREMENTAL`); err != nil {
		return fmt.Errorf("setting auto_vacuum: %w", err)
	}
	if _, err := db.w.ExecContext(ctx, `VACUUM`); err != nil {
		var se *sqlitedriver.Error
		if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_READONLY {
			return nil
		}
		return fmt.Errorf("rewriting the file for auto_vacuum (VACUUM): %w", err)
	}
	return nil
}

// Ping reports whether the database answers and can write: it rewrites the
// heartbeat row in a write transaction and, for a file database, checks
// that its file system has at least [MinFreeBytes] free (where the system
// tells; Linux and macOS). A full disk is an error wrapping
// [exporttask.ErrStorageFull].
func (db *DB) Ping(ctx context.Context) error {
	err := db.begin(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(context.WithoutCancel(ctx), qHeartbeat, time.Now().UnixMilli())
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: ping: writing the heartbeat: %w", err)
	}
	if db.dir == "" {
		return nil
	}
	if free, ok := freeBytes(db.dir); ok && free < MinFreeBytes {
		return exporttask.StorageFull(fmt.Errorf("sqlite: ping: %d bytes free on the file system of %s, fewer than the %d a create may need",
			free, db.dir, MinFreeBytes))
	}
	return nil
}

// ReleaseLeases ends the leases of the IN_PROGRESS tasks whose worker's
// name starts with prefix; see [taskstore.Store].
func (db *DB) ReleaseLeases(ctx context.Context, prefix string) (int, error) {
	if prefix == "" {
		return 0, errors.New("sqlite: release leases: empty prefix")
	}
	var n int64
	err := db.begin(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(context.WithoutCancel(ctx), qReleaseLeases, prefix)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: release leases of %q: %w", prefix, err)
	}
	return int(n), nil
}

// Close closes the database. An in-memory database is gone after it.
func (db *DB) Close() error {
	db.wr.stop()
	var err error
	for _, s := range db.ws {
		err = errors.Join(err, s.Close())
	}
	if db.get != nil {
		err = errors.Join(err, db.get.Close())
	}
	err = errors.Join(err, db.w.Close())
	if db.r != db.w {
		err = errors.Join(err, db.r.Close())
	}
	if db.anchor != nil {
		err = errors.Join(err, db.anchor.Close())
	}
	if err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// write runs fn in a write transaction (BEGIN IMMEDIATE) with the
// prepared statements, and commits it: the [storekit.Write] of this store.
// When fn fails, nothing it did is kept.
func (db *DB) write(ctx context.Context, fn func(tx storekit.Tx) error) error {
	return db.begin(ctx, func(tx *sql.Tx) error { return fn(db.newTx(tx)) })
}

// begin runs fn in a write transaction (BEGIN IMMEDIATE), in arrival
// order, and commits it (an error from a full disk wraps
// [exporttask.ErrStorageFull]); fn may share its transaction with other writes
// (see writer), and may be run again when one of them fails, so it must
// do nothing but its statements and the setting of its results. When
// begin returns an error, nothing fn did is kept. fn's statements should not be cancelled
// by a context: SQLite answers an interrupted write by rolling back the
// whole transaction, the other writes of the group with it.
func (db *DB) begin(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return diskFull(db.wr.do(ctx, fn))
}

// checkDir returns an error naming the directory when dsn is a plain file
// name whose directory does not exist: SQLite itself answers "unable to
// open database file" there, with a code the driver words as "out of
// memory". A ":memory:" or "file:" DSN is left to SQLite.
func checkDir(dsn string) error {
	if dsn == ":memory:" || strings.HasPrefix(dsn, "file:") {
		return nil
	}
	dir := filepath.Dir(dsn)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the directory %s does not exist (create it with: mkdir -p %s)", dir, dir)
	case err != nil:
		return fmt.Errorf("the directory %s cannot be read: %w", dir, err)
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}
