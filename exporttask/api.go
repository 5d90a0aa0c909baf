package exporttask

import "time"

// Facts of the HTTP API that a client and a server share: header names,
// paging limits and the default retention.

// IdempotencyKeyHeader is the request header that makes a create safe to
// retry: a second create with the same key returns the first task.
const IdempotencyKeyHeader = "Idempotency-Key"

// ReplayedHeader is set to "true" on a 201 that returns an existing task
// (an Idempotency-Key replay or a duplicate request) instead of a new one.
const ReplayedHeader = "Idempotent-Replayed"

// RequestIDHeader is the response header that carries the id the server
// gave the request; the same id is in every problem body and in the log.
const RequestIDHeader = "X-Request-Id"

// Paging limits of GET /export-tasks: the number of tasks a page holds
// when the request gives no limit, and the largest limit accepted.
const (
	DefaultListLimit = 10
	MaxListLimit     = 100
)

// DefaultRetention is how long a completed task's artifacts stay available
// unless the server is configured otherwise.
const DefaultRetention = 30 * 24 * time.Hour
