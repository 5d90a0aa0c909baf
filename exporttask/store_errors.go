package exporttask

import (
	"errors"
)

// ErrLeaseLost is returned by a task store when a task is no longer under
// the lease of the worker that asks (aborted, or claimed by another
// worker after the lease ended); [Output.Progress] returns it to an
// exporter, which stops.
var ErrLeaseLost = errors.New("exporttask: task lease lost")
