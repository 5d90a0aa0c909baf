package server

import "github.com/openapi-viewer/viewer/exporttask/taskstore"

// instrument returns st with the duration and outcome of each of its calls
// recorded in m (the histogram exporttask_store_operation_duration_seconds
// of GET /metrics).
func instrument(st Store, m *metrics) Store {
	return taskstore.Instrumented{Tasks: st, Outbox: st, Health: st, Observe: m.observeStore}
}

// TimeWorkerStore returns q with the duration and outcome of each of its
// calls recorded in the server's metrics (the histogram
// exporttask_store_operation_duration_seconds of GET /metrics), as the
// server's own store calls are. Give it to the worker's Runner that runs
// beside the server, for its store calls to be measured too.
func (s *Server) TimeWorkerStore(q taskstore.Queue) taskstore.Queue {
	return taskstore.Instrumented{Queue: q, Observe: s.metrics.observeStore}
}

// TimeDelivererStore returns o with each of its calls recorded in the
// server's metrics, as [Server.TimeWorkerStore] does. Give it to the
// webhook Deliverer that runs beside the server.
func (s *Server) TimeDelivererStore(o taskstore.Outbox) taskstore.Outbox {
	return taskstore.Instrumented{Outbox: o, Observe: s.metrics.observeStore}
}
