package exporttask

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// IdempotencyKeyFinder is implemented by a [Store] that can tell which task
// an Idempotency-Key names without creating one. The server uses it to
// answer a retried create before estimating it (so a retry after the
// estimator failed still gets the stored task), and to refuse a key
// reused with another body (422) early. [Store.Create] makes the same
// check in its transaction, so a race between creates cannot get past it.
// The sqlite and postgres stores implement it.
type IdempotencyKeyFinder interface {
	// TaskByIdempotencyKey returns the customer's task created with key
	// when req is the request key was recorded with (see
	// [CheckIdempotentRequest]), an error wrapping an
	// *[IdempotencyKeyReusedError] when it is another, or an error
	// wrapping ErrNotFound when the key names no task.
	TaskByIdempotencyKey(ctx context.Context, customer, key string, req CreateRequest) (Task, error)
}

// RequestFingerprint returns the fingerprint that a store records with an
// Idempotency-Key: the hex SHA-256 of req's JSON encoding. Two requests
// have the same fingerprint when they decode to the same values, whatever
// the spacing and member order of their bodies; any other difference
// (description and keywords included) makes another fingerprint.
func RequestFingerprint(req CreateRequest) (string, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("exporttask: fingerprinting a request: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// CheckIdempotentRequest decides whether a create with Idempotency-Key key
// and fingerprint fp (see [RequestFingerprint]) of request req may be
// answered with task t, the task key names, whose recorded fingerprint is
// stored: it returns nil when it may, and an *[IdempotencyKeyReusedError]
// when the key was used with another request. A key recorded before
// fingerprints were (stored is empty) is compared as [SameRequest] does.
func CheckIdempotentRequest(key string, t Task, stored, fp string, req CreateRequest) error {
	same := stored == fp
	if stored == "" {
		var err error
		if same, err = SameRequest(t, req); err != nil {
			return err
		}
	}
	if !same {
		return &IdempotencyKeyReusedError{Key: key, TaskID: t.ID}
	}
	return nil
}

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

// SameRequest reports whether req may repeat the request that created t
// or was answered with t, for a key recorded without a fingerprint (see
// [CheckIdempotentRequest]): the same export (equal [DedupKey]) and
// webhooks that t already has (every URL of req with all of its events;
// t's webhooks grow as duplicate requests are merged into it). Description
// and keywords are not compared: a request answered with an existing
// duplicate keeps the duplicate's, so comparing them would refuse an
// honest retry of that request.
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
