package exporttask

import "time"

// The HTTP headers of the API and its webhooks.
const (
	IdempotencyKeyHeader = "Idempotency-Key"     // safe retries: a second create with the key returns the first task
	ReplayedHeader       = "Idempotent-Replayed" // "true" on a 201 that returns an existing task
	RequestIDHeader      = "X-Request-Id"        // the request's id, also in problems and the log
	SignatureHeader      = "X-Export-Signature"  // see [SignWebhook]
	DeliveryHeader       = "X-Export-Delivery"   // a webhook's delivery id, the same on every attempt; signed
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
