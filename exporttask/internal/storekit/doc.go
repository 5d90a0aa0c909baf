// Package storekit holds what the [taskstore.Store] implementations
// (exporttask/sqlite and exporttask/postgres) have in common, their SQL
// included, so that each of them keeps only its driver and what its
// database does its own way.
//
// The SQL text of the statements is written here once, for both
// databases ([Statements]): numbered placeholders, locking clauses in
// braces and list parameters, that each database renders in its own
// [Syntax] ($n or ?n; FOR UPDATE … SKIP LOCKED kept or dropped; arrays
// or JSON arrays). A store implements a [Dialect] (its syntax, how its
// write transactions lock, retry and classify errors, its reads) and
// [Tx], one write transaction, by embedding [SQLTx], which runs the
// shared text over the store's [Conn]: the store adds only Claimable,
// whose locking is its own, and replaces a statement where its database
// does the work differently (PostgreSQL's usage ledger and batched
// lookups). The functions of this
// package then carry out each write of the [taskstore.Store] contract on
// top of them: the decisions of Create (replay, dedup and webhook merge,
// quota), the status changes through [exporttask.Transition] with their
// outbox deliveries, the leases of Claim, Progress, ReleaseForRetry and
// Finish, Expire, and the outbox's ClaimDeliveries and DeliveryDone.
// [SQLStore], the one SQL store, wraps them as the methods of the
// contract over a Dialect, their errors starting with the dialect's
// name, and a store embeds it as an exported field, so that go doc of
// the store names it:
//
//	type DB struct {
//		*storekit.SQLStore
//		...
//	}
//
//	db.SQLStore = storekit.NewSQLStore(dialect{db}, maxRunning)
//
// A method added to the contract is written in three places: the
// contract (package taskstore), here (its SQL text in statements.go, its
// method on SQLStore, and, for a write, a method of SQLTx and Tx), and
// the conformance suite (package storetest). Neither store changes.
//
// The settings of Open that every store takes are [Options], applied with
// [BuildOptions].
//
// It also holds the stored form of a task ([EncodeTask], [DecodeTask],
// [Millis]), row decoding ([ScanTask], [ScanDelivery], [Collect], [Page])
// and the migration runner ([LoadMigrations], [Migrate]).
//
// The package imports no database driver: a store's rows only need a Scan
// method, as both database/sql and pgx rows have.
package storekit
