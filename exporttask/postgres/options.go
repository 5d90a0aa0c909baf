package postgres

import (
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Option configures [Open].
type Option func(*options)

type options struct {
	storekit.Options
	fullDiskHold time.Duration
}

// WithMaxRunningPerCustomer makes Claim pass over a customer that has n
// tasks IN_PROGRESS under a live lease, so one customer's long exports
// cannot hold every worker while another customer waits; the limit holds
// across every process sharing the database. 0, the default, is no limit:
// claims still take turns among customers, and a customer alone in the
// queue uses every worker. A negative n makes Open fail.
func WithMaxRunningPerCustomer(n int) Option {
	return func(o *options) { o.MaxRunning = n }
}

// WithFullDiskHold sets how long [DB.Ping] reports a full disk after a
// write of the store met one. Default [DefaultFullDiskHold]; a duration
// that is not positive makes Open fail.
func WithFullDiskHold(d time.Duration) Option {
	return func(o *options) { o.fullDiskHold = d }
}

// Check reports a setting of o that is out of range.
func (o options) Check() error {
	if err := o.Options.Check(); err != nil {
		return err
	}
	if o.fullDiskHold <= 0 {
		return fmt.Errorf("the full-disk hold must be positive, got %s", o.fullDiskHold)
	}
	return nil
}

// buildOptions applies opts and checks the result.
func buildOptions(opts []Option) (options, error) {
	return storekit.BuildOptions(options{fullDiskHold: DefaultFullDiskHold}, opts)
}
