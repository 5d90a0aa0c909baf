package taskstore

import (
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

// The errors of the [Store] contract that are not the domain's: the server
// answers ErrNotFound with 404 and ErrConflict with 409. A task store's
// ErrLeaseLost is [exporttask.ErrLeaseLost].
var (
	ErrNotFound = errors.New("taskstore: task not found")
	ErrConflict = errors.New("taskstore: conflict with the task's current state")
)

// QuotaError reports a create refused because the customer's storage quota
// would be exceeded.
type QuotaError struct {
	Quota     int64 // the customer's quota, bytes
	Remaining int64 // what the customer's stored tasks leave, bytes
	Requested int64 // the new task's estimated size plus its document's length, bytes
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("taskstore: storage quota exhausted: the task needs %d bytes, %d of %d remain",
		e.Requested, e.Remaining, e.Quota)
}

// IdempotencyKeyReusedError reports a create whose Idempotency-Key the
// customer already used with another request, or with the same request
// over other data of the catalog record: the server answers it with 422.
type IdempotencyKeyReusedError struct {
	Key    string // the Idempotency-Key
	TaskID int64  // the task the key names
	// DataChanged is set when the request is the one the key was used
	// with but the source's data is of another version than when it was
	// (see [SameRequestOtherData]): the record was registered again with
	// other data, so the key's task is not an export of the data there now.
	DataChanged bool
}

func (e *IdempotencyKeyReusedError) Error() string {
	if e.DataChanged {
		return fmt.Sprintf("taskstore: the Idempotency-Key %s names task %d, made from other data of the catalog record", quoted.Short(e.Key), e.TaskID)
	}
	return fmt.Sprintf("taskstore: the Idempotency-Key %s names task %d, created with another request", quoted.Short(e.Key), e.TaskID)
}
