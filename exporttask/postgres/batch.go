package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Creates without a quota that arrive together are inserted together, in
// one statement of up to maxInsertBatch tasks, so that they share a
// commit (one WAL flush), a round trip and the statement's fixed costs.
// insertLanes statements run at once: while one waits for its commit's
// flush, the other takes the creates that queued up meanwhile. More lanes
// make smaller batches, which cost PostgreSQL more CPU per task (in the
// load benchmark, about 4 tasks per statement with 4 lanes, 7 with 2).
const (
	insertLanes    = 2
	maxInsertBatch = 64
	// insertTimeout bounds a batch's statement, which runs without its
	// creates' contexts: should PostgreSQL stop answering, the creates
	// fail after it rather than wait for ever.
	insertTimeout = time.Minute
)

// insertPoolConfig is the configuration of the inserter's pool: cfg's
// connection, insertLanes connections at most, and generic plans. The
// batch statement is planned once per connection, for batches of any
// size, rather than for each batch: planning it costs PostgreSQL more CPU
// than running it. Its plan does not depend on the data: every lookup is
// an index probe per row (see qInsertBatch).
func insertPoolConfig(cfg *pgxpool.Config) *pgxpool.Config {
	c := cfg.Copy()
	c.MaxConns, c.MinConns = insertLanes, 0
	c.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	return c
}

// newTask is a create without a quota handed to the inserter: the row to
// insert and, once its batch ran, the outcome. inserted is false when the
// task was not stored: a task of the customer holds the dedup key, the
// Idempotency-Key names a task, or the batch's statement failed; the
// create then runs on its own (see [DB.Create]).
type newTask struct {
	customer, status, dedupKey, idempotencyKey, fingerprint string
	estimatedSize                                           int64
	doc                                                     []byte

	id       int64
	inserted bool
}

// qInsertBatch inserts the tasks of a batch given as arrays (customer $1,
// status $2, dedup key $3, estimated size $4, document $5, Idempotency-Key
// $6, the request's fingerprint $7; the n-th task is the n-th element of
// each), with their keys (and fingerprints) and one usage row per customer
// (the sum of its tasks' estimated sizes and document lengths), and
// returns the
// position (from 1) and id of each task inserted. A task is left out when
// its Idempotency-Key names a task of its customer, or when a task of its
// customer holds its dedup key (live, or COMPLETED and not yet swept),
// another of the batch included: the unique index on live dedup keys
// refuses it (ON CONFLICT DO NOTHING). Ids are drawn before the insert, so
// that each inserted row can be told from the others by its id. The key
// lookup ends in OFFSET 0 so that the planner keeps it as an index probe
// per row of the batch, rather than joining the batch with every key (a
// hash join that a generic plan made while the table was small keeps,
// however large the table grows).
const qInsertBatch = `WITH r AS MATERIALIZED (
	   SELECT n.pos, nextval(pg_get_serial_sequence('tasks', 'id')) AS id,
	          n.customer, n.status, n.dedup_key, n.estimated_size, n.doc::jsonb AS doc,
	          octet_length(n.doc)::bigint AS doc_bytes, n.key, n.fingerprint
	     FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[])
	          WITH ORDINALITY AS n(customer, status, dedup_key, estimated_size, doc, key, fingerprint, pos)
	    WHERE n.key = '' OR NOT EXISTS (
	            SELECT 1 FROM idempotency_keys k WHERE k.customer = n.customer AND k.key = n.key OFFSET 0)
	 ), task AS (
	   INSERT INTO tasks (id, customer, status, dedup_key, estimated_size, doc, doc_bytes) OVERRIDING SYSTEM VALUE
	   SELECT id, customer, status, dedup_key, estimated_size, doc, doc_bytes FROM r ORDER BY pos
	   ON CONFLICT DO NOTHING RETURNING id
	 ), inserted AS (
	   SELECT r.* FROM r JOIN task USING (id)
	 ), usage AS (
	   INSERT INTO usage_changes (customer, bytes)
	   SELECT customer, sum(estimated_size + doc_bytes)::bigint FROM inserted GROUP BY customer
	   HAVING sum(estimated_size + doc_bytes) <> 0
	 ), idempotency AS (
	   INSERT INTO idempotency_keys (customer, key, fingerprint, task_id)
	   SELECT customer, key, fingerprint, id FROM inserted WHERE key <> ''
	 )
	 SELECT pos, id FROM inserted`

// insertBatch is the run function of the inserter: it inserts the batch's
// tasks in one statement (one implicit transaction) and finishes each
// call. A call whose context ended before its turn gets that context's
// error. When PostgreSQL refuses the statement (two tasks of the batch
// with one Idempotency-Key, say), nothing of it was stored: every call
// finishes with inserted false and runs on its own. Any other error (a
// lost connection) leaves the outcome unknown, and every call gets it.
func (db *DB) insertBatch(batch []*storekit.Call[*newTask]) {
	live := make([]*storekit.Call[*newTask], 0, len(batch))
	for _, c := range batch {
		if err := c.Ctx.Err(); err != nil {
			c.Finish(err)
			continue
		}
		live = append(live, c)
	}
	if len(live) == 0 {
		return
	}
	var (
		customers, statuses, dedupKeys, docs, keys, fps = make([]string, len(live)), make([]string, len(live)),
			make([]string, len(live)), make([]string, len(live)), make([]string, len(live)), make([]string, len(live))
		sizes = make([]int64, len(live))
	)
	for i, c := range live {
		n := c.Arg
		customers[i], statuses[i], dedupKeys[i], docs[i], keys[i] = n.customer, n.status, n.dedupKey, string(n.doc), n.idempotencyKey
		sizes[i], fps[i] = n.estimatedSize, n.fingerprint
	}
	// The statement runs without the calls' contexts: one create's ending
	// context must not undo the others.
	ctx, cancel := context.WithTimeout(context.Background(), insertTimeout)
	defer cancel()
	err := db.runInsertBatch(ctx, live, customers, statuses, dedupKeys, sizes, docs, keys, fps)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		err = nil
		for _, c := range live {
			c.Arg.inserted = false
		}
	}
	for _, c := range live {
		c.Finish(err)
	}
}

// runInsertBatch runs qInsertBatch and marks the calls it inserted.
func (db *DB) runInsertBatch(ctx context.Context, live []*storekit.Call[*newTask], args ...any) error {
	rows, err := db.insertPool.Query(ctx, qInsertBatch, args...)
	if err != nil {
		return fmt.Errorf("inserting %d tasks: %w", len(live), err)
	}
	defer rows.Close()
	for rows.Next() {
		var pos, id int64
		if err := rows.Scan(&pos, &id); err != nil {
			return fmt.Errorf("inserting %d tasks: %w", len(live), err)
		}
		if pos < 1 || pos > int64(len(live)) {
			return fmt.Errorf("inserting %d tasks: position %d returned", len(live), pos)
		}
		live[pos-1].Arg.id, live[pos-1].Arg.inserted = id, true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("inserting %d tasks: %w", len(live), err)
	}
	return nil
}
