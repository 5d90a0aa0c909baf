package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// CreateHeld runs db's create of p up to its commit, then closes inside
// and waits for release before committing: a create caught in flight.
func CreateHeld(ctx context.Context, db *DB, p taskstore.CreateParams, inside chan<- struct{}, release <-chan struct{}) (exporttask.Task, bool, error) {
	return storekit.Create(ctx, func(ctx context.Context, fn func(storekit.Tx) error) error {
		return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			if err := fn(db.newTx(tx)); err != nil {
				return err
			}
			close(inside)
			<-release
			return nil
		})
	}, p)
}

// Inserted is the outcome of one create of a batch given to InsertTogether.
type Inserted struct {
	ID       int64
	Inserted bool
	Err      error
}

// InsertTogether hands the creates of ps (with their contexts) to the
// inserter's run function as one batch, as if they had queued up
// together, and returns each one's outcome.
func InsertTogether(db *DB, ctxs []context.Context, ps []taskstore.CreateParams) []Inserted {
	calls := make([]*storekit.Call[*newTask], len(ps))
	for i, p := range ps {
		t := storekit.NewTask(p)
		doc, err := storekit.EncodeTask(t)
		if err != nil {
			panic(err)
		}
		calls[i] = storekit.NewCall(ctxs[i], &newTask{customer: p.Customer, status: string(t.Status),
			dedupKey: p.Identity.Dedup, idempotencyKey: p.IdempotencyKey, fingerprint: p.Identity.Fingerprint, estimatedSize: t.EstimatedSize, doc: doc})
	}
	db.insertBatch(calls)
	out := make([]Inserted, len(calls))
	for i, c := range calls {
		err := c.Wait()
		out[i] = Inserted{ID: c.Arg.id, Inserted: c.Arg.inserted, Err: err}
	}
	return out
}

// QInsertBatch is the inserter's statement.
const QInsertBatch = qInsertBatch

// DocBytes is the length of the document stored for the task p creates,
// which counts against the customer's quota.
func DocBytes(p taskstore.CreateParams) int64 {
	doc, err := storekit.EncodeTask(storekit.NewTask(p))
	if err != nil {
		panic(err)
	}
	return int64(len(doc))
}
