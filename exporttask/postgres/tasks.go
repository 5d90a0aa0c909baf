package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// customerLock is the first key of the transaction advisory lock that
// serialises the creates of one customer that check a quota; the second is
// a hash of the customer.
const customerLock = 0x65787074 // "expt"

// foldEvery is how often a create without a quota tries to fold its
// customer's usage ledger (when its task id is a multiple of foldEvery),
// and how many ledger rows a create with a quota lets a customer have
// before it folds them.
const foldEvery = 64

// Create stores a new PENDING task unless the Idempotency-Key or the dedup
// key names an existing one; see [taskstore.Store]. Without a quota,
// creates of one customer run side by side: a create that loses a race
// for the same dedup key or Idempotency-Key fails on a unique index and
// runs again, finding the winner.
func (db *DB) Create(ctx context.Context, p taskstore.CreateParams) (exporttask.Task, bool, error) {
	if err := storekit.CheckParams(p); err != nil {
		return exporttask.Task{}, false, fmt.Errorf("postgres: create task: %w", err)
	}
	if p.Quota == 0 {
		t, ok, err := db.createNew(ctx, p)
		if err != nil {
			return exporttask.Task{}, false, fmt.Errorf("postgres: create task: %w", err)
		}
		if ok {
			return t, false, nil
		}
	}
	t, replayed, err := storekit.Create(ctx, db.writeCreate, p)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("postgres: create task: %w", err)
	}
	return t, replayed, nil
}

// LookUp reads, in one round trip, what decides the create: the task
// named by the Idempotency-Key, an equivalent live task (locked), and,
// when a quota applies, the storage in use, read after taking the
// customer's lock (so quota checks of one customer run one at a time, in
// every replica; past foldEvery ledger rows, a second round trip folds
// them). Without a quota it takes no lock: the unique indexes on
// idempotency_keys and on live tasks' dedup keys refuse the insert of a
// create that raced another (see [DB.writeCreate]). In the same round
// trip it clears the dedup key of a COMPLETED twin past its expiry, which
// is no longer a duplicate.
func (w txn) LookUp(ctx context.Context, p taskstore.CreateParams) (storekit.Existing, error) {
	var (
		found storekit.Existing
		b     pgx.Batch
	)
	if p.Quota > 0 {
		b.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, int32(customerLock), p.Customer)
	}
	if p.IdempotencyKey != "" {
		b.Queue(w.SQL.IdempotencyKey(), p.Customer, p.IdempotencyKey).QueryRow(func(row pgx.Row) error {
			return noRowsIsNil(row.Scan(&found.KeyTask, &found.KeyFingerprint))
		})
	}
	if p.Identity.Dedup != "" {
		// A COMPLETED twin past its expiry is no duplicate, and must not
		// hold the key in the unique index against the new task.
		b.Queue(`UPDATE tasks SET dedup_key = ''
			 WHERE customer = $1 AND dedup_key = $2 AND status = 'COMPLETED' AND expired_at <= $3`,
			p.Customer, p.Identity.Dedup, storekit.Millis(p.Now))
		b.Queue(w.SQL.Duplicate(), p.Customer, p.Identity.Dedup, storekit.Millis(p.Now)).QueryRow(func(row pgx.Row) error {
			t, err := storekit.ScanTask(row)
			if err == nil {
				found.Duplicate = &t
			}
			return noRowsIsNil(err)
		})
	}
	var changes int
	if p.Quota > 0 {
		b.Queue(qUsage, p.Customer).QueryRow(func(row pgx.Row) error {
			return row.Scan(&found.Used, &changes)
		})
	}
	if err := w.tx.SendBatch(ctx, &b).Close(); err != nil {
		return storekit.Existing{}, fmt.Errorf("looking for an existing task: %w", err)
	}
	if changes > foldEvery {
		// Under the customer's lock: fold, so the sums stay short. The sum
		// read above is the usage: the fold's own may miss the row of a
		// fold without the lock that commits meanwhile.
		var folded int64
		if err := w.tx.QueryRow(ctx, qFoldUsage, p.Customer).Scan(&folded); err != nil {
			return storekit.Existing{}, fmt.Errorf("folding the storage usage: %w", err)
		}
	}
	return found, nil
}

// createNew is the common case of a create without a quota: when no task
// of the customer has the dedup key (live or not yet swept) and the
// Idempotency-Key names none, it inserts the task, its usage row and its
// key, and ok is true. It hands the task to the inserter, which inserts
// the creates that queue up together in one statement (see insertBatch).
// Otherwise, or when a concurrent create of the same export or key won
// the unique index, it stores nothing and ok is false: the full create
// finds what is there.
func (db *DB) createNew(ctx context.Context, p taskstore.CreateParams) (t exporttask.Task, ok bool, err error) {
	t = storekit.NewTask(p)
	doc, err := storekit.EncodeTask(t)
	if err != nil {
		return exporttask.Task{}, false, err
	}
	n := &newTask{customer: p.Customer, status: string(t.Status), dedupKey: p.Identity.Dedup,
		idempotencyKey: p.IdempotencyKey, fingerprint: p.Identity.Fingerprint, estimatedSize: t.EstimatedSize, doc: doc}
	if err := db.inserter.Do(ctx, n); err != nil {
		return exporttask.Task{}, false, err
	}
	if !n.inserted {
		return exporttask.Task{}, false, nil
	}
	if n.id%foldEvery == 0 {
		// Upkeep of the committed create: a failure leaves the ledger
		// longer, for a later fold, and is not the create's.
		_ = db.write(ctx, func(tx storekit.Tx) error { return tx.(txn).foldUsage(ctx, p.Customer) })
	}
	return storekit.WithID(t, n.id), true, nil
}

// qUsage reads customer $1's storage in use, the sum of its
// usage_changes rows, and how many rows there are (see qFoldUsage).
const qUsage = `SELECT coalesce(sum(bytes), 0)::bigint, count(*) FROM usage_changes WHERE customer = $1`

// qFoldUsage replaces the usage_changes rows of customer $1 that its
// snapshot sees by one row holding their sum, and returns that sum: the
// customer's storage in use. Rows that concurrent transactions add are
// not touched, so no change is lost; run it only under the customer's lock,
// so that two folds never delete the same rows.
const qFoldUsage = `WITH gone AS (
	   DELETE FROM usage_changes WHERE customer = $1 RETURNING bytes
	 )
	 INSERT INTO usage_changes (customer, bytes) SELECT $1, coalesce(sum(bytes), 0)::bigint FROM gone
	 RETURNING bytes`

// foldUsage folds the customer's usage ledger (see qFoldUsage) when no
// other transaction holds the customer's lock; it never waits for it.
func (w txn) foldUsage(ctx context.Context, customer string) error {
	var locked bool
	err := w.tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, hashtext($2))`,
		int32(customerLock), customer).Scan(&locked)
	if err != nil || !locked {
		return err
	}
	var used int64
	return w.tx.QueryRow(ctx, qFoldUsage, customer).Scan(&used)
}

// AddUsage appends delta bytes to the customer's usage ledger (it waits
// for no other transaction).
func (w txn) AddUsage(ctx context.Context, customer string, delta int64) error {
	if delta == 0 {
		return nil
	}
	_, err := w.tx.Exec(ctx, `INSERT INTO usage_changes (customer, bytes) VALUES ($1, $2)`, customer, delta)
	if err != nil {
		return fmt.Errorf("updating storage usage: %w", err)
	}
	return nil
}

// noRowsIsNil returns err, or nil when err is pgx.ErrNoRows.
func noRowsIsNil(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	return err
}

// InsertTask stores the new task t, appends its size and its document's to
// the customer's usage and records its Idempotency-Key, if any, with the
// request's fingerprint (p.Identity.Fingerprint), in one statement; a
// concurrent create of the same export or key makes it fail on a unique
// index. Every foldEvery-th task folds the customer's usage ledger.
func (w txn) InsertTask(ctx context.Context, p taskstore.CreateParams, t exporttask.Task, doc []byte) (int64, error) {
	var id int64
	err := w.tx.QueryRow(ctx,
		`WITH task AS (
		   INSERT INTO tasks (customer, status, dedup_key, estimated_size, doc, doc_bytes)
		   VALUES ($1, $2, $3, $4, $5, $7) RETURNING id
		 ), usage AS (
		   INSERT INTO usage_changes (customer, bytes) SELECT $1, $4 + $7 FROM task WHERE $4 + $7 <> 0
		 ), idempotency AS (
		   INSERT INTO idempotency_keys (customer, key, fingerprint, task_id) SELECT $1, $6, $8, id FROM task WHERE $6 <> ''
		 )
		 SELECT id FROM task`,
		p.Customer, string(t.Status), p.Identity.Dedup, t.EstimatedSize, string(doc), p.IdempotencyKey, int64(len(doc)), p.Identity.Fingerprint).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("inserting: %w", err)
	}
	if p.Quota == 0 && id%foldEvery == 0 {
		if err := w.foldUsage(ctx, p.Customer); err != nil {
			return 0, fmt.Errorf("folding the storage usage: %w", err)
		}
	}
	return id, nil
}
