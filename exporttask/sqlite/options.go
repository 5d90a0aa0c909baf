package sqlite

import "github.com/openapi-viewer/viewer/exporttask/internal/storekit"

// Option configures [Open].
type Option func(*options)

type options struct {
	storekit.Options
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

// buildOptions applies opts and checks the result.
func buildOptions(opts []Option) (options, error) {
	return storekit.BuildOptions(options{}, opts)
}
