package storekit

import (
	"slices"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// CheckIdempotentRequest decides whether a create with Idempotency-Key key
// and fingerprint fp (a [taskstore.Identity.Fingerprint]) of request req
// may be answered with task t, the task key names, whose recorded
// fingerprint is stored: it returns nil when it may, and an
// *[taskstore.IdempotencyKeyReusedError] when the key was used with
// another request, or with the same request over other data (DataChanged,
// see [taskstore.SameRequestOtherData]). A key recorded without a data
// version is not replayed for a request that has one: the store cannot
// tell which data its task was made from. A key recorded before
// fingerprints were (stored is empty) is compared as [SameRequest] does,
// and counts as other data when fp has a version.
func CheckIdempotentRequest(key string, t exporttask.Task, stored, fp string, req exporttask.CreateRequest) error {
	if stored == fp {
		return nil
	}
	reused := &taskstore.IdempotencyKeyReusedError{Key: key, TaskID: t.ID}
	if stored == "" {
		same, err := SameRequest(t, req)
		if err != nil {
			return err
		}
		if !same {
			return reused
		}
		unversioned, err := taskstore.RequestFingerprint(req)
		if err != nil {
			return err
		}
		if unversioned == fp {
			return nil
		}
		reused.DataChanged = true
		return reused
	}
	reused.DataChanged = taskstore.SameRequestOtherData(stored, fp)
	return reused
}

// SameRequest reports whether req may repeat the request that created t
// or was answered with t, for a key recorded without a fingerprint (see
// [CheckIdempotentRequest]): the same export (equal [DedupKey]) and
// webhooks that t already has (every URL of req with all of its events;
// t's webhooks grow as duplicate requests are merged into it). Description
// and keywords are not compared: a request answered with an existing
// duplicate keeps the duplicate's, so comparing them would refuse an
// honest retry of that request. The data's version is not compared
// here (see [CheckIdempotentRequest]).
func SameRequest(t exporttask.Task, req exporttask.CreateRequest) (bool, error) {
	stored, err := taskstore.DedupKey(t.CreateRequest)
	if err != nil {
		return false, err
	}
	asked, err := taskstore.DedupKey(req)
	if err != nil {
		return false, err
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
