package worker

import "time"

// The defaults of [RunnerConfig]'s fields, used when a field is left zero.
// The retention is [exporttask.DefaultRetention].
const (
	DefaultWorkers = 4
	// DefaultSmallWorkers: four workers more than DefaultWorkers, reserved
	// for small tasks. A small export spends most of its time waiting (on
	// the disk, on the cores the large ones share), so more of them at
	// once finish a burst sooner: with 4 whole-extent DEM exports running,
	// bench/fairness saw 20 small exports of another customer end with
	// p95 2.9 s with four of these workers and 6.4 to 8.9 s with two, most
	// of it waiting for a worker (bench/README.md). An idle worker costs
	// nothing; a busy one at most a small export's memory.
	DefaultSmallWorkers = 4
	// DefaultSmallTask: a task estimated at 10 s or less is small. Small
	// exports (a city's DEM, a few thousand tiles) are estimated at a
	// second or two; an export of a whole large record at minutes.
	DefaultSmallTask     = 10 * time.Second
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
