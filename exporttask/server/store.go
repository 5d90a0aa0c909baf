package server

import "github.com/openapi-viewer/viewer/exporttask/taskstore"

// Store is what a [Server] takes of a [taskstore.Store] to answer
// requests: the customers' tasks, their webhook deliveries, and the
// counts and the probe of /metrics and /readyz. The stores of packages
// sqlite and postgres implement it, as every taskstore.Store does.
type Store interface {
	taskstore.Tasks
	taskstore.Outbox
	taskstore.Health
}
