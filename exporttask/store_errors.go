package exporttask

import (
	"errors"
)

// ErrLeaseLost: the task is no longer under the asking worker's lease (from
// a task store, and from an export's Output.Progress: the exporter stops).
var ErrLeaseLost = errors.New("exporttask: task lease lost")
