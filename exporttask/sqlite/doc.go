// Package sqlite implements [taskstore.Store] on SQLite, with the pure-Go
// driver modernc.org/sqlite (no cgo).
//
// Open takes a file path, or ":memory:" for a private in-memory database
// (handy in tests; each Open gets a fresh one):
//
//	db, err := sqlite.Open(ctx, "exporttask.db")
//	if err != nil {
//		return err
//	}
//	defer db.Close()
//
// A file database runs in WAL mode: writes go through a single connection,
// one transaction at a time (BEGIN IMMEDIATE), while reads use a pool of
// their own and never wait for writers. Writers queue in arrival order, and
// every write query is prepared once. Several processes may open the same
// file; SQLite's locks serialise their writes. An in-memory database has a
// single connection for reads and writes.
//
// Commits are synchronous=FULL: a write has been synced to disk (fsync)
// before it returns, so a power cut cannot undo it. To keep that affordable, the writes that queue up
// while a transaction commits are committed together by the next one
// (group commit): the sync to disk is shared, and a write that fails
// leaves the others of its group unharmed. A "file:" URI may choose
// otherwise with its own _pragma=synchronous(...) parameter.
//
// The schema is migrated at Open, from versioned SQL files embedded in the
// package.
//
// A file gives the pages of deleted rows back to the file system: it is
// created with auto_vacuum = INCREMENTAL (a file made by an earlier
// version, without it, is rewritten once by VACUUM at Open), and Purge,
// which the sweeper calls every sweep, ends with PRAGMA incremental_vacuum
// and a passive checkpoint. Without that, the pages of removed tasks would
// be reused by later ones but never returned, leaving the file at its
// largest size.
//
// Tasks are stored as indexed columns (customer, status, dedup key, lease,
// expiry) plus the task as a JSON document. Claims take turns among the
// customers with a claimable task, the one served longest ago first (table
// customer_turns), and [WithMaxRunningPerCustomer] limits the tasks of one
// customer running at once.
package sqlite
