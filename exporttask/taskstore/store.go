package taskstore

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Store keeps tasks, the work queue and the webhook outbox. Implementations
// live in subpackages (sqlite, postgres) and must pass the conformance suite
// in package storetest.
//
// Error contract: every method returns an error wrapping one of the
// sentinels of package exporttask when that case applies ([ErrNotFound], [ErrConflict],
// [exporttask.ErrLeaseLost]) or a *[QuotaError], *[exporttask.ValidationError] or
// *[IdempotencyKeyReusedError] from Create; any other error is a store
// failure (I/O, driver) that the server answers with 500. A method that
// returns an error has changed nothing. Every status change goes through
// [exporttask.Transition] and, in the same transaction, writes its event to the outbox
// (one [Delivery] per webhook URL subscribed to that event, with a thin
// payload, see [exporttask.EventTask]).
//
// Tasks are scoped by customer: a task of another customer is ErrNotFound.
//
// A Store is made of the capabilities its users take: [Tasks] (the HTTP
// server's requests), [Queue] (the export workers), [Outbox] (the webhook
// deliverer, and the server's view of a task's deliveries) and [Health]
// (monitoring). Each is declared here once; the server, the worker and
// the deliverer take them as they are.
type Store interface {
	Tasks
	Queue
	Outbox
	Health

	// Close releases the store's resources.
	Close() error
}

// Tasks creates, reads, lists, aborts and dismisses the customers' tasks,
// and counts what they hold against the storage quota: what the HTTP
// server does with a [Store]. See [Store] for the error contract.
type Tasks interface {
	// Create stores a new PENDING task, unless an equivalent one exists.
	//
	// When p.IdempotencyKey is not empty and the customer already created a
	// task with that key, that task is returned with replayed = true and
	// nothing else happens, if p.Identity.Fingerprint is the one the key
	// was recorded with (the same request over the same version of the
	// source's data); otherwise an *[IdempotencyKeyReusedError] is
	// returned, with DataChanged set when only the data's version differs
	// (see [SameRequestOtherData]). A key recorded before fingerprints
	// were counts as the same request when the key's task is the same
	// export with every webhook of p.Request, and as other data when
	// p.Identity has a version. The key is checked in the same
	// transaction as the insert, so that of creates racing with one key and
	// different requests, one stores its task and the others fail; this
	// is the only look-up of the key, so a replay is Create's answer. A
	// create with an Idempotency-Key but no p.Identity.Fingerprint is an
	// error: the store does not compute the identity.
	// Otherwise, when p.Identity.Dedup matches a task of the customer that is PENDING, IN_PROGRESS or COMPLETED and not expired
	// at p.Now, p.Request's webhooks are merged into it (union of events
	// per URL, for every URL; a TASK_UPDATED event is emitted when that
	// changed anything, and the receivers that newly subscribed to an
	// event that already happened are sent it at
	// once) and it is returned with replayed = true; a merge that would
	// leave more than [exporttask.MaxWebhooks] URLs is refused with a
	// *[exporttask.ValidationError] naming /webhook. Otherwise
	// the quota is checked: when p.Quota > 0 and what the new task needs
	// (p.EstimatedSize plus the length in bytes of the JSON document the
	// store keeps for it: the task as created, request and ROI included)
	// exceeds p.Quota minus what the customer's tasks hold, a *QuotaError
	// is returned. The customer's tasks hold the length of each one's
	// document as created, whatever its status, as long as the task is
	// stored (until Dismiss or Purge removes it), plus the EstimatedSize of
	// its PENDING, IN_PROGRESS and PAUSED tasks and the sum of the
	// artifact sizes of its COMPLETED ones.
	// These checks and the insert are atomic, also across replicas.
	// A new task is returned with p.Request's values, not read back: its
	// maps and slices are p.Request's. A later Get decodes the stored task,
	// with the numbers in keywords, parameters and feature properties
	// written with the text they were created with; for a request from
	// [exporttask.DecodeCreateRequest] the two are equal.
	Create(ctx context.Context, p CreateParams) (t exporttask.Task, replayed bool, err error)

	// Get returns the customer's task with that id, or ErrNotFound.
	Get(ctx context.Context, customer string, id int64) (exporttask.Task, error)

	// List returns the customer's tasks, newest first (highest id first),
	// with an id below p.Before when p.Before > 0, with the status p.Status
	// when it is not empty, at most p.Limit of them. more reports whether
	// further tasks match after the last one returned.
	List(ctx context.Context, p ListParams) (tasks []exporttask.Task, more bool, err error)

	// Abort moves the customer's task to ABORTED, at time now. ErrNotFound
	// when it does not exist, ErrConflict (wrapping a *TransitionError) when
	// its status is final.
	Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error)

	// Dismiss removes the customer's final task (COMPLETED, FAILED,
	// ABORTED, EXPIRED or ARCHIVED) with everything the store keeps for
	// it: its Idempotency-Key, and its webhook deliveries, pending ones
	// included (they are dropped, never sent). What it held against the
	// quota is freed. Get answers ErrNotFound after. ErrNotFound when the
	// task does not exist; ErrConflict when its status is not final. The
	// task's artifact files are not the store's: the caller deletes them
	// first (see package server).
	Dismiss(ctx context.Context, customer string, id int64) error

	// Usage returns the bytes the customer's tasks hold against the
	// storage quota, counted as Create counts them when it checks the
	// quota (see Create); 0 for a customer without tasks. The server's
	// dry run of a create (POST /export-tasks/estimate) calls it to say
	// what quota is left.
	Usage(ctx context.Context, customer string) (int64, error)
}

// Queue is the work queue of the export workers: claims and leases of
// tasks, their outcomes, and the sweeps of tasks past their retention.
// See [Store] for the error contract.
type Queue interface {
	// Claim takes a task that is PENDING, or IN_PROGRESS with a lease that
	// ended before now (its worker died). Customers take turns: the one
	// whose last claim is the longest ago goes first (one never claimed
	// from before any other), so one customer's burst does not starve
	// another; within a customer the oldest task goes first. A store may
	// pass over customers at a configured limit of running tasks. It moves
	// the task to IN_PROGRESS (emitting TASK_STARTED when it was PENDING), and leases it
	// to worker until now+lease, counting one more attempt (Task.Attempts).
	// ok is false when there is nothing to claim.
	// No two concurrent Claims, in any number of processes, return the same
	// task while its lease holds.
	Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (t exporttask.Task, ok bool, err error)

	// ClaimSmall is Claim among the tasks estimated to take at most
	// maxTime (Task.EstimatedTime, in whole seconds, at most maxTime
	// rounded down to a second, and at least 1 s): the customers take
	// turns among those with such a task, the oldest such task of a
	// customer goes first, and larger tasks are left for Claim. A worker
	// reserved for small tasks calls it, so that large exports cannot hold
	// every worker (see worker.RunnerConfig.SmallWorkers).
	ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (t exporttask.Task, ok bool, err error)

	// Progress records progress (0..100) of a task leased to worker and
	// extends the lease to now+lease. It emits TASK_IN_PROGRESS when
	// progress changed. ErrLeaseLost when the task is no longer
	// IN_PROGRESS under that worker's lease (aborted, or claimed by another
	// worker after the lease ended); ErrNotFound when there is no task id.
	Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error)

	// ReleaseForRetry gives a task leased to worker back, to be tried
	// again later (after an export failure that may pass): the task stays
	// IN_PROGRESS with its progress, and its lease, still in worker's name,
	// ends at now+delay, so that no Claim takes it before then and the
	// first Claim after takes it over (counting one more attempt). It emits
	// no event. ErrLeaseLost and ErrNotFound as for Progress; a negative
	// delay is an error.
	ReleaseForRetry(ctx context.Context, id int64, worker string, now time.Time, delay time.Duration) (exporttask.Task, error)

	// Finish ends a task leased to worker: COMPLETED with r.Artifacts and
	// progress 100 when r.ErrorReason is empty, else FAILED with that
	// reason. It sets finishedAt = now and, for COMPLETED, expiredAt =
	// now + r.Retention, and releases the lease. ErrLeaseLost as for
	// Progress.
	Finish(ctx context.Context, id int64, worker string, r FinishParams, now time.Time) (exporttask.Task, error)

	// Expire moves up to limit COMPLETED tasks whose expiredAt is at or
	// before now to EXPIRED and returns the ids of the tasks it moved (so
	// that their files can be deleted).
	Expire(ctx context.Context, now time.Time, limit int) (ids []int64, err error)

	// Purge removes up to limit tasks that are ABORTED or FAILED with a
	// finishedAt, or EXPIRED with an expiredAt, at or before before (tasks
	// already final when the store was upgraded to a version with Purge
	// count from the upgrade), oldest first, with everything Dismiss
	// removes, and returns their ids (so that their files can be deleted).
	// What they held against the quota is freed; Get answers ErrNotFound
	// after.
	Purge(ctx context.Context, before time.Time, limit int) (ids []int64, err error)

	// ReleaseLeases ends at once the leases of the IN_PROGRESS tasks whose
	// worker's name starts with prefix, so that the next Claim takes them,
	// and returns how many it ended. A restarted process calls it with its
	// own stable instance name (see worker.RunnerConfig.Instance): its
	// earlier run is gone, so its tasks need not wait for their leases.
	ReleaseLeases(ctx context.Context, prefix string) (int, error)
}

// Outbox is the webhook outbox that status changes write to: the
// deliverer claims and records deliveries, and the HTTP server lists and
// redelivers a task's. See [Store] for the error contract.
type Outbox interface {
	// ClaimDeliveries leases up to c.Limit webhook deliveries that are
	// due (next attempt at or before c.Now, not delivered, not given up)
	// until c.Now+c.Lease, none to a host in c.SkipHosts and, when
	// c.PerHost > 0, at most c.PerHost to one host. For each task and URL,
	// only the oldest undelivered delivery is ever claimable, so events
	// reach a receiver in the order they happened.
	ClaimDeliveries(ctx context.Context, c DeliveryClaim) ([]Delivery, error)

	// DeliveryDone records the outcome of an attempt at delivery id. With
	// r.Delivered, the delivery is done. Otherwise r.NextAttempt is when to
	// try again; a zero NextAttempt means give up (the delivery stays
	// recorded, with r.Error, but is never claimed again, and no longer
	// blocks the deliveries after it). ErrNotFound when there is no
	// delivery id; ErrConflict when its outcome is already recorded
	// (delivered or given up, e.g. by another deliverer after this one's
	// lease ended).
	DeliveryDone(ctx context.Context, id int64, r DeliveryResult) error

	// PruneDeliveries deletes up to limit deliveries that were delivered
	// or given up before before, and returns how many it deleted.
	PruneDeliveries(ctx context.Context, before time.Time, limit int) (int, error)

	// ListDeliveries returns the deliveries of the customer's task id,
	// oldest first, at most limit of them with an id above after.
	// ErrNotFound when the customer has no task id.
	ListDeliveries(ctx context.Context, customer string, id int64, after int64, limit int) ([]DeliveryRecord, error)

	// Redeliver writes a new pending delivery, created and due at now (its
	// retry horizon starts then), with the URL, event and payload (the
	// event's own timestamp included) of delivery deliveryID of the
	// customer's task id, and returns it. It has its own id, so a
	// receiver that deduplicates on X-Export-Delivery processes it.
	// ErrNotFound when the customer has no such task or the task no such
	// delivery (pruned, say); [ErrDeliveryPending] (an ErrConflict) while
	// a delivery of the same event to the same URL of the task, that one
	// included, is pending, so that redeliveries to a receiver never pile
	// up.
	Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (DeliveryRecord, error)
}

// Health is what monitoring asks of a store.
type Health interface {
	// Stats counts what the store holds, for monitoring (the server's
	// /metrics). Each call counts every task and delivery, so call it at
	// scrape intervals, not per request.
	Stats(ctx context.Context) (Stats, error)

	// Ping reports whether the store is reachable and can write: it
	// rewrites a heartbeat row, so a read-only database or a full disk
	// fails it.
	Ping(ctx context.Context) error
}

// CreateParams is the input of [Tasks.Create].
type CreateParams struct {
	Customer string
	Request  exporttask.CreateRequest
	// EstimatedSize (bytes) and EstimatedTime (seconds) come from the
	// Exporter's estimate.
	EstimatedSize int64
	EstimatedTime int64
	// Identity is the request's dedup key and fingerprint over the
	// version of the source's data it reads (see [Identify]). An empty
	// Identity.Dedup matches no task.
	Identity Identity
	// IdempotencyKey is the client's Idempotency-Key header, or empty.
	IdempotencyKey string
	// Quota is the customer's storage quota in bytes; 0 means unlimited.
	Quota int64
	Now   time.Time
}

// ListParams is the input of [Tasks.List].
type ListParams struct {
	Customer string
	Status   exporttask.Status // empty: any status
	Before   int64             // 0: from the newest
	Limit    int
}

// FinishParams is the outcome of an export, for [Queue.Finish].
type FinishParams struct {
	Artifacts   []exporttask.Artifact
	ErrorReason string        // empty: COMPLETED; else FAILED with this reason
	Retention   time.Duration // how long a COMPLETED task's artifacts stay available
}

// Delivery is one webhook POST to make, as written to the outbox.
type Delivery struct {
	ID       int64
	TaskID   int64
	Customer string // the task's customer, whose secret signs the delivery
	URL      string
	Host     string // see [DeliveryHost]
	Event    exporttask.Event
	Attempts int // attempts made before this one
	// Payload is the JSON body to POST: {"event", "timestamp", "data"},
	// data an [exporttask.EventTask] carrying this URL's subscription.
	Payload []byte
	// CreatedAt is when the event happened.
	CreatedAt time.Time
}

// DeliveryResult is the outcome of one attempt, for [Outbox.DeliveryDone].
// A failed attempt carries its [exporttask.DeliveryErrorClass], and the
// receiver's HTTP status when it answered; a store keeps both as they are
// and gives them back in [DeliveryRecord].
type DeliveryResult struct {
	Delivered   bool
	NextAttempt time.Time // zero: give up
	// StatusCode is the receiver's HTTP status of a failed attempt; 0 when
	// the receiver did not answer.
	StatusCode int
	// Class says why the attempt failed; empty when it did not.
	Class exporttask.DeliveryErrorClass
	// Error is what went wrong in the deliverer's words, for the logs and
	// the record; nothing reads a status or a class from it.
	Error string
	// At is when the attempt ended: a delivered or given-up delivery is
	// pruned some time after it. Zero means the store's clock.
	At time.Time
}
