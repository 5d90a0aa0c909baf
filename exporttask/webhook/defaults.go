package webhook

import "time"

// The defaults of [DelivererConfig]'s fields, used when a field is left
// zero.
const (
	DefaultRetryHorizon  = 24 * time.Hour
	DefaultTimeout       = 10 * time.Second
	DefaultBaseBackoff   = 2 * time.Second
	DefaultMaxBackoff    = time.Hour
	DefaultConcurrency   = 16
	DefaultPerHost       = 2
	DefaultRetention     = 7 * 24 * time.Hour
	DefaultPruneInterval = 10 * time.Minute
	DefaultPollInterval  = time.Second
	DefaultUserAgent     = "openapi-viewer-exporttask-webhooks/2"
)
