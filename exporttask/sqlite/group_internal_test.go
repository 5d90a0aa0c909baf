package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// groupDB opens a file database with a table t of unique names.
func groupDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "tasks.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	_, err = db.w.ExecContext(t.Context(), `CREATE TABLE t (name TEXT PRIMARY KEY)`)
	require.NoError(t, err)
	return db
}

// holdWriter makes the writer busy with a write that waits for release,
// so that the writes asked meanwhile queue up; it returns once the writer
// runs it. The returned channel receives the held write's outcome.
func holdWriter(t *testing.T, db *DB) (release func(), outcome <-chan error) {
	t.Helper()
	running, hold, out := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		out <- db.begin(context.Background(), func(*sql.Tx) error {
			close(running)
			<-hold
			return nil
		})
	}()
	<-running
	return func() { close(hold) }, out
}

// queueWrite asks for fn in the background and returns once it is queued
// behind the held write (the queue has n writes).
func queueWrite(t *testing.T, db *DB, ctx context.Context, n int, fn func(tx *sql.Tx) error) <-chan error {
	t.Helper()
	out := make(chan error, 1)
	go func() { out <- db.begin(ctx, fn) }()
	require.Eventually(t, func() bool {
		return db.wr.queue.Queued() == n
	}, 10*time.Second, time.Millisecond, "write %d never queued", n)
	return out
}

func names(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.r.QueryContext(t.Context(), `SELECT name FROM t ORDER BY name`)
	require.NoError(t, err)
	defer rows.Close()
	var got []string
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		got = append(got, n)
	}
	require.NoError(t, rows.Err())
	return got
}

func insert(name string, txs []*sql.Tx, i int) func(tx *sql.Tx) error {
	return func(tx *sql.Tx) error {
		txs[i] = tx
		_, err := tx.Exec(`INSERT INTO t (name) VALUES (?)`, name)
		return err
	}
}

func TestGroupCommitSharesOneTransaction(t *testing.T) {
	db := groupDB(t)
	release, held := holdWriter(t, db)
	txs := make([]*sql.Tx, 4)
	var outs []<-chan error
	for i, name := range []string{"a", "b", "c", "d"} {
		outs = append(outs, queueWrite(t, db, t.Context(), i+1, insert(name, txs, i)))
	}
	release()
	require.NoError(t, <-held)
	for i, out := range outs {
		require.NoError(t, <-out)
		assert.Same(t, txs[0], txs[i], "write %d ran in another transaction: the queued writes were not grouped", i)
	}
	assert.Equal(t, []string{"a", "b", "c", "d"}, names(t, db))
}

func TestGroupCommitKeepsTheOthersWhenOneWriteFails(t *testing.T) {
	db := groupDB(t)
	release, held := holdWriter(t, db)

	txs := make([]*sql.Tx, 5)
	failing := errors.New("fn failed after its insert")
	outs := []<-chan error{
		queueWrite(t, db, t.Context(), 1, insert("a", txs, 0)),
		queueWrite(t, db, t.Context(), 2, func(tx *sql.Tx) error {
			if err := insert("fails", txs, 1)(tx); err != nil {
				return err
			}
			return failing
		}),
		queueWrite(t, db, t.Context(), 3, insert("b", txs, 2)),
		queueWrite(t, db, t.Context(), 4, insert("a", txs, 3)), // breaks the primary key
		queueWrite(t, db, t.Context(), 5, insert("c", txs, 4)),
	}
	release()
	require.NoError(t, <-held)

	assert.NoError(t, <-outs[0])
	assert.ErrorIs(t, <-outs[1], failing)
	assert.NoError(t, <-outs[2])
	assert.ErrorContains(t, <-outs[3], "UNIQUE constraint failed")
	assert.NoError(t, <-outs[4])
	assert.Equal(t, []string{"a", "b", "c"}, names(t, db), "the failed writes left nothing, the others are kept")
}

// TestGroupCommitOnAFullDisk fills the database (max_page_count stands for
// a full disk): the writes that need room fail, nothing half-done is
// left, and writes succeed again once there is room.
func TestGroupCommitOnAFullDisk(t *testing.T) {
	db := groupDB(t)
	var pages int
	require.NoError(t, db.w.QueryRowContext(t.Context(), `PRAGMA page_count`).Scan(&pages))
	_, err := db.w.ExecContext(t.Context(), fmt.Sprintf(`PRAGMA max_page_count = %d`, pages))
	require.NoError(t, err)

	release, held := holdWriter(t, db)
	big := strings.Repeat("x", 64<<10) // needs new pages
	txs := make([]*sql.Tx, 3)
	outs := []<-chan error{
		queueWrite(t, db, t.Context(), 1, insert("small", txs, 0)),
		queueWrite(t, db, t.Context(), 2, insert(big, txs, 1)),
		queueWrite(t, db, t.Context(), 3, insert(big+"y", txs, 2)),
	}
	release()
	require.NoError(t, <-held)
	small := <-outs[0]
	assert.ErrorContains(t, <-outs[1], "full")
	assert.ErrorContains(t, <-outs[2], "full")
	want := []string(nil)
	if small == nil {
		want = []string{"small"}
	}
	assert.Equal(t, want, names(t, db), "only what was answered with success is stored")

	_, err = db.w.ExecContext(t.Context(), `PRAGMA max_page_count = 1073741823`)
	require.NoError(t, err)
	require.NoError(t, db.begin(t.Context(), insert(big, txs, 0)), "writes succeed again once there is room")
}

func TestGroupCommitDropsAWriteCancelledWhileQueued(t *testing.T) {
	db := groupDB(t)
	release, held := holdWriter(t, db)

	ctx, cancel := context.WithCancel(t.Context())
	ran := make(chan struct{}, 1)
	out := queueWrite(t, db, ctx, 1, func(tx *sql.Tx) error {
		ran <- struct{}{}
		_, err := tx.Exec(`INSERT INTO t (name) VALUES ('cancelled')`)
		return err
	})
	cancel()
	assert.ErrorIs(t, <-out, context.Canceled)
	txs := make([]*sql.Tx, 1)
	after := queueWrite(t, db, t.Context(), 1, insert("after", txs, 0)) // the cancelled write left the queue
	release()
	require.NoError(t, <-held)
	require.NoError(t, <-after)

	assert.Empty(t, ran, "a write cancelled before its turn must not run")
	assert.Equal(t, []string{"after"}, names(t, db))
}

func TestCloseFinishesQueuedWritesAndRefusesNewOnes(t *testing.T) {
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "tasks.db"))
	require.NoError(t, err)
	_, err = db.w.ExecContext(t.Context(), `CREATE TABLE t (name TEXT PRIMARY KEY)`)
	require.NoError(t, err)
	release, held := holdWriter(t, db)
	txs := make([]*sql.Tx, 1)
	queued := queueWrite(t, db, t.Context(), 1, insert("queued", txs, 0))

	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	require.Eventually(t, db.wr.queue.Closing, 10*time.Second, time.Millisecond)
	assert.ErrorIs(t, db.begin(t.Context(), func(*sql.Tx) error { return nil }), storekit.ErrClosed)

	release()
	require.NoError(t, <-held)
	assert.NoError(t, <-queued, "a write queued before Close is carried out")
	assert.NoError(t, <-closed)
}

func TestCommitsAreSynchronousFull(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dsn  string
		want int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{
		{filepath.Join(dir, "default.db"), 2},
		{"file:" + filepath.Join(dir, "normal.db") + "?_pragma=synchronous(NORMAL)", 1},
	} {
		db, err := Open(t.Context(), tc.dsn)
		require.NoError(t, err, tc.dsn)
		var got int
		require.NoError(t, db.w.QueryRowContext(t.Context(), `PRAGMA synchronous`).Scan(&got))
		assert.Equal(t, tc.want, got, tc.dsn)
		require.NoError(t, db.Close())
	}
}
