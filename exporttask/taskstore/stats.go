package taskstore

import "github.com/openapi-viewer/viewer/exporttask"

// Stats counts what a store holds, for monitoring (the server's
// /metrics): see [Health.Stats].
type Stats struct {
	// Tasks is the number of tasks in each status, of all customers.
	// PENDING tasks are the work queue: created, not yet claimed.
	Tasks map[exporttask.Status]int64
	// DeliveriesPending is the number of webhook deliveries neither
	// delivered nor given up (due now or waiting for a retry).
	DeliveriesPending int64
	// DeliveriesFailed is the number of webhook deliveries given up.
	DeliveriesFailed int64
}
