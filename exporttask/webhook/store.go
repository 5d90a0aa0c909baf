package webhook

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Store is the part of a [taskstore.Store] a [Deliverer] uses: the webhook
// outbox. Each method does what the method of the same name of
// taskstore.Store says. The stores of packages sqlite and postgres
// implement it, as every taskstore.Store does.
type Store interface {
	// ClaimDeliveries leases due deliveries; see
	// [taskstore.Store.ClaimDeliveries].
	ClaimDeliveries(ctx context.Context, c taskstore.DeliveryClaim) ([]taskstore.Delivery, error)
	// DeliveryDone records the outcome of an attempt; see
	// [taskstore.Store.DeliveryDone].
	DeliveryDone(ctx context.Context, id int64, r taskstore.DeliveryResult) error
	// PruneDeliveries deletes finished deliveries; see
	// [taskstore.Store.PruneDeliveries].
	PruneDeliveries(ctx context.Context, before time.Time, limit int) (int, error)
}

// Every taskstore.Store is a Store.
var _ Store = taskstore.Store(nil)
