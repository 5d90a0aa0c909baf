package webhook

import "time"

// The defaults of [DelivererConfig]'s fields, used when a field is left
// zero. Package server leaves them to this package, so each is set here
// only.
const (
	DefaultMaxAttempts  = 10
	DefaultTimeout      = 10 * time.Second
	DefaultBaseBackoff  = 2 * time.Second
	DefaultMaxBackoff   = 10 * time.Minute
	DefaultConcurrency  = 4
	DefaultPollInterval = time.Second
	DefaultUserAgent    = "openapi-viewer-exporttask-webhooks/1"
)
