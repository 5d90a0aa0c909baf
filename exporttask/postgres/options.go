package postgres

import (
	"fmt"
	"time"
)

// Option configures [Open].
type Option func(*options)

type options struct {
	maxRunning   int
	fullDiskHold time.Duration
}

// WithMaxRunningPerCustomer makes Claim pass over a customer that has n
// tasks IN_PROGRESS under a live lease, so one customer's long exports
// cannot hold every worker while another customer waits; the limit holds
// across every process sharing the database. 0, the default, is no limit:
// claims still take turns among customers, and a customer alone in the
// queue uses every worker. A negative n makes Open fail.
func WithMaxRunningPerCustomer(n int) Option {
	return func(o *options) { o.maxRunning = n }
}

// WithFullDiskHold sets how long [DB.Ping] reports a full disk after a
// write of the store met one. Default [DefaultFullDiskHold]; a duration
// that is not positive makes Open fail.
func WithFullDiskHold(d time.Duration) Option {
	return func(o *options) { o.fullDiskHold = d }
}

// buildOptions applies opts and checks the result.
func buildOptions(opts []Option) (options, error) {
	o := options{fullDiskHold: DefaultFullDiskHold}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxRunning < 0 {
		return options{}, fmt.Errorf("the most running tasks per customer must not be negative, got %d", o.maxRunning)
	}
	if o.fullDiskHold <= 0 {
		return options{}, fmt.Errorf("the full-disk hold must be positive, got %s", o.fullDiskHold)
	}
	return o, nil
}
