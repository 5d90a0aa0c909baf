package server

import (
	"errors"
	"net/http"

	"github.com/openapi-viewer/viewer/exporttask"
)

// replayIdempotent answers a create whose Idempotency-Key the customer
// already used, before anything is estimated: with the stored task (201,
// replayed) when req repeats the request that created it, with 422
// otherwise. It returns false, having written nothing, when the key is new
// or the store cannot look keys up (then [exporttask.Store.Create] still
// replays the task, without the body check).
func (s *Server) replayIdempotent(w http.ResponseWriter, r *http.Request, key string, req exporttask.CreateRequest) bool {
	finder, ok := s.store.(exporttask.IdempotencyKeyFinder)
	if !ok || key == "" {
		return false
	}
	t, err := finder.TaskByIdempotencyKey(r.Context(), customerOf(r), key)
	if errors.Is(err, exporttask.ErrNotFound) {
		return false
	}
	if err != nil {
		s.storeError(w, r, "looking up an idempotency key", err)
		return true
	}
	same, err := exporttask.SameRequest(t, req)
	if err != nil {
		s.serverError(w, r, "comparing an idempotent retry", err)
		return true
	}
	if !same {
		s.writeProblem(w, r, exporttask.IdempotencyKeyReusedProblem(key, t.ID))
		return true
	}
	s.writeCreated(w, r, t, true)
	return true
}
