package exporttask

import (
	"errors"
)

// ErrLeaseLost is returned by a task store when a task is no longer under
// the lease of the worker that asks; [Output.Progress] returns it to the
// exporter, which stops.
var ErrLeaseLost = errors.New("exporttask: task lease lost")
