// Package storekit holds what the [taskstore.Store] implementations
// (exporttask/sqlite and exporttask/postgres) have in common, so that each
// of them keeps only its SQL and its driver.
//
// A store implements [Tx], one write transaction speaking the store's SQL,
// and a [Write] function that runs a transaction (retrying it when the
// database asks for that). The functions of this package then carry out
// each write of the [taskstore.Store] contract on top of them: the
// decisions of Create (replay, dedup and webhook merge, quota), the status
// changes through [exporttask.Transition] with their outbox deliveries, the
// leases of Claim, Progress, ReleaseForRetry and Finish, Expire, and the
// outbox's ClaimDeliveries and DeliveryDone. [Common] wraps them as the
// methods of the contract, their errors starting with the store's name,
// and a store embeds it:
//
//	type DB struct {
//		shared // = storekit.Common, so that the field is not exported
//		...
//	}
//
//	db.shared = storekit.NewCommon(storekit.CommonConfig{Name: "mystore", Write: db.write, ...})
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
