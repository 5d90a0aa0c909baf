package exporttask

import "time"

// The HTTP headers of the API and its webhooks.
const (
	// IdempotencyKeyHeader makes a create safe to retry: a second create
	// with the same key returns the first task.
	IdempotencyKeyHeader = "Idempotency-Key"
	// ReplayedHeader is "true" on a 201 that returns an existing task.
	ReplayedHeader  = "Idempotent-Replayed"
	RequestIDHeader = "X-Request-Id" // the request's id, also in problems and the log
	SignatureHeader = "X-Export-Signature"
	// DeliveryHeader carries a webhook's delivery id: the same on every
	// attempt at one delivery, covered by the signature.
	DeliveryHeader = "X-Export-Delivery"
)

// Paging limits of GET /export-tasks: the number of tasks a page holds
// when the request gives no limit, and the largest limit accepted.
const (
	DefaultListLimit = 10
	MaxListLimit     = 100
)

// DefaultRetention is how long a completed task's artifacts stay available
// unless the server is configured otherwise.
const DefaultRetention = 30 * 24 * time.Hour
