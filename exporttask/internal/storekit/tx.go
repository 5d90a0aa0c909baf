package storekit

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Write runs fn in a write transaction of the store and commits it; when fn
// fails, nothing it did is kept and its error is returned. Write may run fn
// again (after a deadlock, say), so fn starts from scratch each time.
type Write func(ctx context.Context, fn func(tx Tx) error) error

// Lease is who holds a task and until when.
type Lease struct {
	Owner string // the worker, or empty
	Until int64  // Unix milliseconds (see [Millis]), or 0
}

// Leased is a task with its lease, as a write transaction reads it.
type Leased struct {
	Task  exporttask.Task
	Lease Lease
}

// Existing is what a create finds before it inserts anything; see
// [Tx.LookUp].
type Existing struct {
	KeyTask int64 // the task the Idempotency-Key names, or 0
	// KeyFingerprint is the fingerprint recorded with the
	// Idempotency-Key (a [taskstore.Identity.Fingerprint]); empty for a
	// key recorded before fingerprints were.
	KeyFingerprint string
	Duplicate      *exporttask.Task // the live equivalent task, locked, or nil
	Used           int64            // the customer's storage in use, bytes
}

// Final is a task that [Tx.Purgeable] found.
type Final struct {
	ID       int64
	Customer string
}

// Tx is one write transaction of a store: the statements the functions of
// this package need, in the store's SQL. Times are Unix milliseconds (see
// [Millis]). Where the database locks rows, the reads lock what they return
// until the transaction ends. Errors are returned as the driver gives them
// unless said otherwise: the functions of this package add the context.
type Tx interface {
	// CustomerTask reads the customer's task id; taskstore.ErrNotFound
	// when there is none.
	CustomerTask(ctx context.Context, customer string, id int64) (exporttask.Task, error)
	// LeasedTask reads task id with its lease; taskstore.ErrNotFound when
	// there is none.
	LeasedTask(ctx context.Context, id int64) (Leased, error)
	// LookUp reads what decides a create, in a way that makes sure what it
	// finds still holds at the insert: either creates of one customer run
	// one at a time, or a unique index refuses the insert (or the
	// Idempotency-Key) of a create that raced another, and the store runs
	// that create again. It reads:
	// when p.IdempotencyKey is set, the task it names and the fingerprint
	// recorded with it; otherwise, or when
	// it names none, when p.Identity.Dedup is set, the newest task of the
	// customer with that key that is PENDING, IN_PROGRESS, or COMPLETED
	// and not expired at p.Now; and when p.Quota > 0, the customer's
	// storage in use. It may skip what the earlier findings make moot.
	LookUp(ctx context.Context, p taskstore.CreateParams) (Existing, error)
	// InsertTask stores the new task t (document doc, whose length it
	// records as the task's document bytes) for p, adds its estimated
	// size plus len(doc) to the customer's usage, records
	// p.IdempotencyKey (when not empty) with p.Identity.Fingerprint as
	// naming it, and returns its id.
	InsertTask(ctx context.Context, p taskstore.CreateParams, t exporttask.Task, doc []byte) (int64, error)
	// UpdateTask writes t's row (status, expiry, lease, document doc, and
	// the time it became final, see [FinalAt]) and returns the task's
	// customer.
	UpdateTask(ctx context.Context, t exporttask.Task, doc []byte, l Lease) (customer string, err error)
	// DeleteTask deletes task id with its deliveries and the
	// Idempotency-Keys that name it, and returns the document bytes
	// recorded at its insert; taskstore.ErrNotFound when there is no
	// task id. It does not change the usage.
	DeleteTask(ctx context.Context, id int64) (docBytes int64, err error)
	// Purgeable reads up to limit tasks that are ABORTED, FAILED or
	// EXPIRED and became so (see [FinalAt]) at or before before, oldest
	// first.
	Purgeable(ctx context.Context, before int64, limit int) ([]Final, error)
	// AddUsage adds delta bytes to the customer's storage in use; nothing
	// when delta is 0.
	AddUsage(ctx context.Context, customer string, delta int64) error
	// RememberKey records the customer's Idempotency-Key key, with
	// fingerprint fp (a [taskstore.Identity.Fingerprint]), as naming task id.
	RememberKey(ctx context.Context, customer, key, fp string, id int64) error

	// Claimable reads the next task to claim, among the tasks that are
	// PENDING, or IN_PROGRESS with a lease that ended before now: the
	// oldest of the customer whose turn it is (the one whose last claim is
	// the longest ago; a customer never claimed from goes first), skipping
	// the customers that have maxRunning tasks IN_PROGRESS under a live
	// lease (maxRunning 0: no limit). When maxTime > 0, only tasks whose
	// estimated time (Task.EstimatedTime, seconds) is at most maxTime
	// count as claimable (see [taskstore.Queue.ClaimSmall]). It moves that
	// customer to the back of the round. ok is false when there is no such
	// task.
	Claimable(ctx context.Context, now int64, maxRunning int, maxTime int64) (t exporttask.Task, ok bool, err error)
	// Expirable reads up to limit COMPLETED tasks whose expiry is at or
	// before now, soonest expiry first.
	Expirable(ctx context.Context, now int64, limit int) ([]exporttask.Task, error)

	// InsertDeliveries writes one pending delivery of event ev of task
	// taskID per entry of out, in that order, created and due at at.
	InsertDeliveries(ctx context.Context, taskID int64, ev exporttask.Event, out []Outgoing, at int64) error
	// DueDeliveries reads up to q.Limit pending deliveries whose next
	// attempt is at or before q.Now and whose lease ended before q.Now,
	// each the oldest pending one of its task and URL, none to a host of
	// q.SkipHosts, at most q.PerHost (when > 0) per host, next attempt
	// first, with the customer of their task.
	DueDeliveries(ctx context.Context, q Due) ([]taskstore.Delivery, error)
	// LeaseDeliveries leases the deliveries ids until until.
	LeaseDeliveries(ctx context.Context, ids []int64, until int64) error
	// DeliveryState reads delivery id's state column (see [StateColumn]);
	// taskstore.ErrNotFound when there is none.
	DeliveryState(ctx context.Context, id int64) (int, error)
	// RecordAttempt counts an attempt at delivery id, releases its lease
	// and records o.
	RecordAttempt(ctx context.Context, id int64, o Outcome) error
	// PruneDeliveries deletes up to limit delivered or given-up
	// deliveries whose done_at is before before, oldest first, and
	// returns how many it deleted.
	PruneDeliveries(ctx context.Context, before int64, limit int) (int, error)
	// TaskDeliveries reads up to limit deliveries of task taskID with an
	// id above after, by id (see [ScanDeliveryRecord]).
	TaskDeliveries(ctx context.Context, taskID, after int64, limit int) ([]taskstore.DeliveryRecord, error)
	// CopyDelivery writes a new pending delivery, created and due at at,
	// with the task, URL, host, event and payload of delivery deliveryID
	// of task taskID, and returns its id; taskstore.ErrNotFound when
	// task taskID has no delivery deliveryID.
	CopyDelivery(ctx context.Context, taskID, deliveryID, at int64) (int64, error)
}
