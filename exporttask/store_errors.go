package exporttask

import (
	"errors"
	"fmt"
)

// The errors a task store returns (see package taskstore), which the
// server answers with 404, 409 and, for ErrLeaseLost, which a worker
// and an [Exporter] stop on.
var (
	ErrNotFound  = errors.New("exporttask: task not found")
	ErrConflict  = errors.New("exporttask: conflict with the task's current state")
	ErrLeaseLost = errors.New("exporttask: task lease lost")
)

// QuotaError reports a create refused because the customer's storage quota
// would be exceeded.
type QuotaError struct {
	Quota     int64 // the customer's quota, bytes
	Remaining int64 // what the customer's stored tasks leave, bytes
	Requested int64 // the new task's estimated size plus its document's length, bytes
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("exporttask: storage quota exhausted: the task needs %d bytes, %d of %d remain",
		e.Requested, e.Remaining, e.Quota)
}
