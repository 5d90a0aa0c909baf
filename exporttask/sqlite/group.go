package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// maxGroup is the most writes committed by one transaction. It bounds how
// long a write may wait behind the others of its group.
const maxGroup = 64

// errClosed is the error of a write asked of a closed database.
var errClosed = errors.New("database is closed")

// writeRequest is one write transaction's work, queued for the writer.
type writeRequest struct {
	ctx  context.Context
	fn   func(tx *sql.Tx) error
	done chan error // receives the outcome, once
}

// writer is the goroutine that owns the write connection. It takes the
// oldest queued write and every write queued after it (up to maxGroup),
// runs them one after the other in one transaction and commits them together:
// with synchronous=FULL the commit's sync to disk is the cost of a write,
// and group commit shares it among the writes that queued up meanwhile.
// Writes run in arrival order.
//
// A write that fails leaves no trace, and the others of its group still
// commit (see commit).
type writer struct {
	w     *sql.DB
	wake  chan struct{} // a write was queued; buffered, 1
	quit  chan struct{} // closed by stop
	ended chan struct{} // closed when run returns

	mu     sync.Mutex
	queue  []*writeRequest
	closed bool
}

func startWriter(w *sql.DB) *writer {
	wr := &writer{w: w, wake: make(chan struct{}, 1), quit: make(chan struct{}), ended: make(chan struct{})}
	go wr.run()
	return wr
}

// stop ends the writer once the writes queued so far are done. Writes
// asked after stop fail with errClosed.
func (wr *writer) stop() {
	wr.mu.Lock()
	if !wr.closed {
		wr.closed = true
		close(wr.quit)
	}
	wr.mu.Unlock()
	<-wr.ended
}

// do runs fn in a write transaction, which it may share with other writes,
// and returns fn's error or the transaction's. When do returns an error,
// nothing fn did is committed. When ctx ends while fn waits in the queue,
// do takes it out and returns ctx's error; once the writer has taken fn,
// do waits for its outcome (only the outcome says whether fn's changes
// were committed).
func (wr *writer) do(ctx context.Context, fn func(tx *sql.Tx) error) error {
	r := &writeRequest{ctx: ctx, fn: fn, done: make(chan error, 1)}
	wr.mu.Lock()
	if wr.closed {
		wr.mu.Unlock()
		return errClosed
	}
	wr.queue = append(wr.queue, r)
	wr.mu.Unlock()
	select {
	case wr.wake <- struct{}{}:
	default: // the writer is awake already
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		if wr.unqueue(r) {
			return ctx.Err()
		}
		return <-r.done
	}
}

// unqueue takes r out of the queue and reports whether it was still there.
func (wr *writer) unqueue(r *writeRequest) bool {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	for i, q := range wr.queue {
		if q == r {
			wr.queue = append(wr.queue[:i], wr.queue[i+1:]...)
			return true
		}
	}
	return false
}

// take removes up to maxGroup of the oldest queued writes from the queue
// and appends them to batch.
func (wr *writer) take(batch []*writeRequest) []*writeRequest {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	n := min(len(wr.queue), maxGroup)
	batch = append(batch, wr.queue[:n]...)
	rest := copy(wr.queue, wr.queue[n:])
	clear(wr.queue[rest:])
	wr.queue = wr.queue[:rest]
	return batch
}

func (wr *writer) run() {
	defer close(wr.ended)
	batch := make([]*writeRequest, 0, maxGroup)
	for {
		batch = wr.take(batch[:0])
		if len(batch) > 0 {
			wr.commit(batch)
			clear(batch) // let the requests go
			continue
		}
		select {
		case <-wr.wake:
		case <-wr.quit:
			// Writes queued before stop are done above; none comes after.
			if batch = wr.take(batch[:0]); len(batch) > 0 {
				wr.commit(batch)
				continue
			}
			return
		}
	}
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
func (wr *writer) commit(batch []*writeRequest) {
	for len(batch) > 0 {
		failed, err := wr.together(batch)
		switch {
		case failed < 0: // all committed, or all failed with the commit
			for _, r := range batch {
				r.done <- err
			}
			return
		case failed > 0:
			// Commit the writes before the failed one. Should one of
			// them fail now, it is handled in the same way.
			wr.commit(batch[:failed])
		}
		batch[failed].done <- err
		batch = batch[failed+1:]
	}
}

// together runs the batch in one transaction and commits it. When a write
// fails, it rolls the transaction back and returns the write's index and
// error; otherwise failed is -1 and err is the commit's outcome, shared by
// every write. A write whose context ended before its turn fails with the
// context's error.
func (wr *writer) together(batch []*writeRequest) (failed int, err error) {
	// The transaction runs without the writes' contexts: one write's
	// ending context must not undo the others.
	tx, err := wr.w.BeginTx(context.Background(), nil)
	if err != nil {
		return -1, fmt.Errorf("begin: %w", err)
	}
	for i, r := range batch {
		err := r.ctx.Err()
		if err == nil {
			err = r.fn(tx)
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
