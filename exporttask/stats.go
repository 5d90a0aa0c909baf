package exporttask

import "context"

// StoreStats counts what a store holds, for monitoring (the server's
// /metrics).
type StoreStats struct {
	// Tasks is the number of tasks in each status, of all customers.
	// PENDING tasks are the work queue: created, not yet claimed.
	Tasks map[Status]int64
	// DeliveriesPending is the number of webhook deliveries neither
	// delivered nor given up (due now or waiting for a retry).
	DeliveriesPending int64
	// DeliveriesFailed is the number of webhook deliveries given up.
	DeliveriesFailed int64
}

// StatsReader is implemented by a [Store] that can count its contents for
// monitoring. The sqlite and postgres stores implement it; each call
// counts every task and delivery, so call it at scrape intervals, not per
// request.
type StatsReader interface {
	Stats(ctx context.Context) (StoreStats, error)
}
