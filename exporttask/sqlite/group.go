package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// maxGroup is the most writes committed by one transaction. It bounds how
// long a write may wait behind the others of its group.
const maxGroup = 64

// write is one write transaction's work, queued for the writer.
type write = storekit.Call[func(tx *sql.Tx) error]

// writer owns the write connection: one goroutine (a [storekit.Batcher]
// of one lane) takes the oldest queued write and every write queued after
// it (up to maxGroup), runs them one after the other in one transaction
// and commits them together: with synchronous=FULL the commit's sync to
// disk is the cost of a write, and group commit shares it among the writes
// that queued up meanwhile. Writes run in arrival order.
//
// A write that fails leaves no trace, and the others of its group still
// commit (see commit).
type writer struct {
	w     *sql.DB
	queue *storekit.Batcher[func(tx *sql.Tx) error]
}

func startWriter(w *sql.DB) *writer {
	wr := &writer{w: w}
	wr.queue = storekit.NewBatcher(1, maxGroup, wr.commit)
	return wr
}

// stop ends the writer once the writes queued so far are done. Writes
// asked after stop fail with storekit.ErrClosed.
func (wr *writer) stop() { wr.queue.Close() }

// do runs fn in a write transaction, which it may share with other writes,
// and returns fn's error or the transaction's. When do returns an error,
// nothing fn did is committed. When ctx ends while fn waits in the queue,
// do takes it out and returns ctx's error; once the writer has taken fn,
// do waits for its outcome (only the outcome says whether fn's changes
// were committed).
func (wr *writer) do(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return wr.queue.Do(ctx, fn)
}

// commit runs batch in transactions shared by consecutive writes and
// sends each write its outcome.
//
// The writes of a group run one after the other in one transaction,
// without savepoints (a savepoint per write would make SQLite copy every
// page a write touches into its sub-journal, which costs more than the
// shared commit saves). When a write fails, the transaction is rolled
// back, the writes before it are run again and committed without it (they
// succeed as before: they see the same database), the failed write gets
// its error, and the writes after it form the next group. A write's
// outcome is thus the one it would have had alone, in arrival order.
func (wr *writer) commit(batch []*write) {
	for len(batch) > 0 {
		failed, err := wr.together(batch)
		switch {
		case failed < 0: // all committed, or all failed with the commit
			for _, r := range batch {
				r.Finish(err)
			}
			return
		case failed > 0:
			// Commit the writes before the failed one. Should one of
			// them fail now, it is handled in the same way.
			wr.commit(batch[:failed])
		}
		batch[failed].Finish(err)
		batch = batch[failed+1:]
	}
}

// together runs the batch in one transaction and commits it. When a write
// fails, it rolls the transaction back and returns the write's index and
// error; otherwise failed is -1 and err is the commit's outcome, shared by
// every write. A write whose context ended before its turn fails with the
// context's error.
func (wr *writer) together(batch []*write) (failed int, err error) {
	// The transaction runs without the writes' contexts: one write's
	// ending context must not undo the others.
	tx, err := wr.w.BeginTx(context.Background(), nil)
	if err != nil {
		return -1, fmt.Errorf("begin: %w", err)
	}
	for i, r := range batch {
		err := r.Ctx.Err()
		if err == nil {
			err = r.Arg(tx)
		}
		if err != nil {
			_ = tx.Rollback()
			return i, err
		}
	}
	if err := tx.Commit(); err != nil {
		// Make sure that no transaction stays open on the connection,
		// whatever the driver did with the failed COMMIT.
		_, _ = wr.w.ExecContext(context.Background(), `ROLLBACK`)
		return -1, fmt.Errorf("commit: %w", err)
	}
	return -1, nil
}
