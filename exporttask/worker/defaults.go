package worker

import "time"

// The defaults of [RunnerConfig]'s fields, used when a field is left zero.
// The retention is [exporttask.DefaultRetention].
const (
	DefaultWorkers       = 4
	DefaultLease         = 30 * time.Second
	DefaultPollInterval  = time.Second
	DefaultSweepInterval = time.Minute
	DefaultMaxAttempts   = 3
	DefaultRetryDelay    = 10 * time.Second
	// DefaultFinalRetention is how long an ABORTED, FAILED or EXPIRED
	// task stays stored before the sweeper removes it: a week, so that a
	// client that polls now and then (not over a weekend, say) still sees
	// how its task ended and why, and well past the day that webhook
	// deliveries of the final event are retried; not longer, since the
	// task's document (its ROI, up to hundreds of kB) counts against the
	// customer's quota until it goes.
	DefaultFinalRetention = 7 * 24 * time.Hour
)
