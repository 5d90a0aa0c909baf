package server

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Store is the part of a [taskstore.Store] a [Server] uses to answer
// requests: creating, reading, listing, aborting and dismissing tasks,
// their webhook deliveries, and the counts and the probe of /metrics and
// /readyz. Each method does what the method of the same name of
// taskstore.Store says. The stores of packages sqlite and postgres
// implement it, as every taskstore.Store does.
type Store interface {
	// Create stores a new task or answers with an equivalent one; see
	// [taskstore.Store.Create].
	Create(ctx context.Context, p taskstore.CreateParams) (t exporttask.Task, replayed bool, err error)
	// Get returns a customer's task; see [taskstore.Store.Get].
	Get(ctx context.Context, customer string, id int64) (exporttask.Task, error)
	// List returns a page of a customer's tasks; see
	// [taskstore.Store.List].
	List(ctx context.Context, p taskstore.ListParams) (tasks []exporttask.Task, more bool, err error)
	// Abort moves a customer's task to ABORTED; see
	// [taskstore.Store.Abort].
	Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error)
	// Dismiss removes a customer's final task; see
	// [taskstore.Store.Dismiss].
	Dismiss(ctx context.Context, customer string, id int64) error
	// ListDeliveries returns a page of a task's webhook deliveries; see
	// [taskstore.Store.ListDeliveries].
	ListDeliveries(ctx context.Context, customer string, id int64, after int64, limit int) ([]taskstore.DeliveryRecord, error)
	// Redeliver writes a new attempt at a delivery; see
	// [taskstore.Store.Redeliver].
	Redeliver(ctx context.Context, customer string, id, deliveryID int64, now time.Time) (taskstore.DeliveryRecord, error)
	// Usage returns the storage a customer's tasks hold, for the dry
	// run's quota left; see [taskstore.Store.Usage].
	Usage(ctx context.Context, customer string) (int64, error)
	// Stats counts tasks and deliveries for /metrics; see
	// [taskstore.Store.Stats].
	Stats(ctx context.Context) (taskstore.Stats, error)
	// Ping probes the store for /readyz; see [taskstore.Store.Ping].
	Ping(ctx context.Context) error
}

// Every taskstore.Store is a Store.
var _ Store = taskstore.Store(nil)
