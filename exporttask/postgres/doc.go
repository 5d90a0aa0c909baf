// Package postgres implements [taskstore.Store] on PostgreSQL, with
// github.com/jackc/pgx/v5 (pgxpool). It is the store for several replicas
// of the server sharing one database.
//
//	db, err := postgres.Open(ctx, "postgres://user@db.internal/exports")
//	if err != nil {
//		return err
//	}
//	defer db.Close()
//
// Open migrates the schema from versioned SQL files embedded in the
// package, under a session advisory lock, so replicas starting together
// apply each migration once. The tables live in the connection's
// search_path (set it in the dsn, e.g. ?search_path=exports, to use a
// schema of your own).
//
// Concurrency across replicas: Claim and ClaimDeliveries lock rows with
// FOR UPDATE SKIP LOCKED, so workers never wait for each other nor take
// the same row. Transactions that lose a deadlock or serialisation race
// are retried.
//
// Creates without a quota (CreateParams.Quota == 0) take no lock: their
// checks hold through unique indexes: at most one PENDING, IN_PROGRESS or
// COMPLETED task per customer and dedup key, one task per customer and
// Idempotency-Key. The creates that arrive together, of any customers,
// are inserted together: they queue for the store's inserter, which
// inserts what queued up meanwhile (up to 64 tasks) in one statement on
// one of 2 connections of its own, so they share one commit, one WAL
// flush and one round trip; a create alone is inserted at once. Each
// create returns once its statement has committed. A create the statement
// leaves out (its dedup key or Idempotency-Key is taken, by an earlier
// task or by another create of the batch) runs again on its own and finds
// the task that holds it (a replay, an *taskstore.IdempotencyKeyReusedError
// when the key was recorded with another request, or a merge of webhooks
// into it, which locks that task's row); so does every create of a statement that
// PostgreSQL refuses as a whole, which stored nothing. A COMPLETED task
// past its expiry, not yet swept to EXPIRED, is no duplicate: the create
// that meets one clears its dedup key first.
//
// Storage in use is a ledger (table usage_changes): creates (one row per
// customer and statement), status changes and dismissals append a row, so
// they never queue on a row per customer. The customer's usage is the sum
// of its rows; Usage reads that sum without a lock, as of its statement
// (the dry run's quota left, which a create made meanwhile changes).
//
// Creates with a quota take a transaction advisory lock on the customer
// and hold it until they commit, so the quota check and the insert are
// atomic: a customer's creates with a quota run one at a time, one commit
// (one fsync, plus the round trips of the transaction) after another.
// That bounds one customer's creates to about 1 / (commit latency); other
// customers' creates do not wait. Under the lock the create sums the
// customer's ledger rows and, past 64 of them, folds them into one, so
// the sum stays short; every 64th task created without a quota folds too,
// when the lock is free (it never waits for it). See bench/README.md
// (load) for what each costs.
//
// Claims take turns among customers: Claim serves, among the customers
// with a claimable task, the one served longest ago (table
// customer_turns), locking its turn row first, so concurrent claims go to
// different customers and [WithMaxRunningPerCustomer] holds across
// replicas. Its cost grows with the number of customers that have tasks
// waiting or running, not with the number of tasks.
package postgres
