// Package storekit holds what the [taskstore.Store] implementations
// (exporttask/sqlite and exporttask/postgres) have in common, so that each
// of them keeps only its SQL and its driver.
//
// A store implements a [Dialect] (its placeholders, how its write
// transactions lock, retry and classify errors, its reads) and [Tx], one
// write transaction speaking the store's SQL. The functions of this
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
