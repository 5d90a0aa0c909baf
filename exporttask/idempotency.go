package exporttask

import (
	"context"
	"fmt"
	"slices"
)

// IdempotencyKeyFinder is implemented by a [Store] that can tell which task
// an Idempotency-Key names without creating one. The server uses it to
// answer a retried create before estimating it (so a retry after the
// estimator failed still gets the stored task), and to refuse a key
// reused with another body (422). The sqlite and postgres stores
// implement it.
type IdempotencyKeyFinder interface {
	// TaskByIdempotencyKey returns the customer's task created with key,
	// or an error wrapping ErrNotFound when there is none.
	TaskByIdempotencyKey(ctx context.Context, customer, key string) (Task, error)
}

// SameRequest reports whether req may repeat the request that created t
// or was answered with t, as the Idempotency-Key check needs: the same
// export (equal [DedupKey]) and webhooks that t already has (every URL of
// req with all of its events; t's webhooks grow as duplicate requests are
// merged into it). Description and keywords are not compared: a request
// answered with an existing duplicate keeps the duplicate's, so comparing
// them would refuse an honest retry of that request.
func SameRequest(t Task, req CreateRequest) (bool, error) {
	stored, err := DedupKey(t.CreateRequest)
	if err != nil {
		return false, err
	}
	asked, err := DedupKey(req)
	if err != nil {
		return false, err
	}
	if stored != asked {
		return false, nil
	}
	for _, wh := range req.Webhook {
		i := slices.IndexFunc(t.Webhook, func(h Webhook) bool { return h.URL == wh.URL })
		if i < 0 {
			return false, nil
		}
		for _, e := range wh.Events {
			if !slices.Contains(t.Webhook[i].Events, e) {
				return false, nil
			}
		}
	}
	return true, nil
}

// IdempotencyKeyError reports a create whose Idempotency-Key the customer
// already used for another request (see [SameRequest]): the store checks
// it in the create's transaction, so that of creates racing with one key,
// only the one that stored its task, or repeats its request, succeeds.
type IdempotencyKeyError struct {
	Key    string // the Idempotency-Key
	TaskID int64  // the task the key names
}

func (e *IdempotencyKeyError) Error() string {
	return fmt.Sprintf("exporttask: the Idempotency-Key %s names task %d, created by another request", quote(e.Key), e.TaskID)
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
