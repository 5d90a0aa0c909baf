package exporttask

import "fmt"

// IdempotencyKeyReusedError reports a create whose Idempotency-Key the
// customer already used with another request: the server answers it with
// 422 (see [IdempotencyKeyReusedProblem]).
type IdempotencyKeyReusedError struct {
	Key    string // the Idempotency-Key
	TaskID int64  // the task the key names
}

func (e *IdempotencyKeyReusedError) Error() string {
	return fmt.Sprintf("exporttask: the Idempotency-Key %s names task %d, created with another request", quote(e.Key), e.TaskID)
}

// ProblemTypeIdempotencyKeyReused is the type of the 422 problem that
// answers a create whose Idempotency-Key the customer already used with
// another request body (as the IETF Idempotency-Key draft says).
const ProblemTypeIdempotencyKeyReused = "https://openapi-viewer.dev/problems/idempotency-key-reused"

// IdempotencyKeyReusedProblem returns the 422 problem for a key that
// named task id with another request body.
func IdempotencyKeyReusedProblem(key string, id int64) *Problem {
	detail := fmt.Sprintf("the Idempotency-Key %s was used for task %d with another request body; "+
		"send a new key for a new request", quote(key), id)
	return &Problem{Type: ProblemTypeIdempotencyKeyReused, Title: "Idempotency-Key reused",
		Status: 422, Detail: detail, Message: detail}
}
