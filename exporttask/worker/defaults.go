package worker

import "time"

// The defaults of [RunnerConfig]'s fields, used when a field is left zero.
// Package server leaves them to this package, so each is set here only.
// The retention is [exporttask.DefaultRetention].
const (
	DefaultWorkers       = 4
	DefaultLease         = 30 * time.Second
	DefaultPollInterval  = time.Second
	DefaultSweepInterval = time.Minute
	DefaultMaxAttempts   = 3
	DefaultRetryDelay    = 10 * time.Second
)
