// Package postgres implements [exporttask.Store] on PostgreSQL, with
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
// the same row; Create holds a transaction advisory lock on the customer,
// so its idempotency, dedup and quota checks and its insert are atomic.
// Transactions that lose a deadlock or serialisation race are retried.
//
// Claims take turns among customers: Claim serves, among the customers
// with a claimable task, the one served longest ago (table
// customer_turns), locking its turn row first, so concurrent claims go to
// different customers and [WithMaxRunningPerCustomer] holds across
// replicas. Its cost grows with the number of customers that have tasks
// waiting or running, not with the number of tasks.
package postgres
