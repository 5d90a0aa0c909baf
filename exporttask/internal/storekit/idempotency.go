package storekit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// RequestFingerprint returns the fingerprint that a store records with an
// Idempotency-Key: the hex SHA-256 of req's JSON encoding. Two requests
// have the same fingerprint when they decode to the same values, whatever
// the spacing and member order of their bodies; any other difference
// (description and keywords included) makes another fingerprint.
func RequestFingerprint(req exporttask.CreateRequest) (string, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("storekit: fingerprinting a request: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// CheckIdempotentRequest decides whether a create with Idempotency-Key key
// and fingerprint fp (see [RequestFingerprint]) of request req may be
// answered with task t, the task key names, whose recorded fingerprint is
// stored: it returns nil when it may, and an *[taskstore.IdempotencyKeyReusedError]
// when the key was used with another request. A key recorded before
// fingerprints were (stored is empty) is compared as [SameRequest] does,
// with dedup, req's [taskstore.DedupKey] when the caller has it (a create's
// [taskstore.CreateParams.DedupKey]), or empty to have it computed.
func CheckIdempotentRequest(key string, t exporttask.Task, stored, fp string, req exporttask.CreateRequest, dedup string) error {
	same := stored == fp
	if stored == "" {
		var err error
		if same, err = SameRequest(t, req, dedup); err != nil {
			return err
		}
	}
	if !same {
		return &taskstore.IdempotencyKeyReusedError{Key: key, TaskID: t.ID}
	}
	return nil
}

// SameRequest reports whether req may repeat the request that created t
// or was answered with t, for a key recorded without a fingerprint (see
// [CheckIdempotentRequest]): the same export (equal [DedupKey]) and
// webhooks that t already has (every URL of req with all of its events;
// t's webhooks grow as duplicate requests are merged into it). Description
// and keywords are not compared: a request answered with an existing
// duplicate keeps the duplicate's, so comparing them would refuse an
// honest retry of that request. asked is req's DedupKey when the caller
// has it, or empty to have it computed here.
func SameRequest(t exporttask.Task, req exporttask.CreateRequest, asked string) (bool, error) {
	stored, err := taskstore.DedupKey(t.CreateRequest)
	if err != nil {
		return false, err
	}
	if asked == "" {
		if asked, err = taskstore.DedupKey(req); err != nil {
			return false, err
		}
	}
	if stored != asked {
		return false, nil
	}
	for _, wh := range req.Webhook {
		i := slices.IndexFunc(t.Webhook, func(h exporttask.Webhook) bool { return h.URL == wh.URL })
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
