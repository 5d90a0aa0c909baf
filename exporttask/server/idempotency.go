package server

import (
	"errors"
	"net/http"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// replayIdempotent answers a create whose Idempotency-Key the customer
// already used, before anything is estimated: with the stored task (201,
// replayed) when req is the request the key was recorded with, with 422
// otherwise. It returns false, having written nothing, when the key is new
// Either way [taskstore.Store.Create]
// makes the same check in its transaction, which settles a race between
// creates with one key.
func (s *Server) replayIdempotent(w http.ResponseWriter, r *http.Request, key string, req exporttask.CreateRequest) bool {
	if key == "" {
		return false
	}
	t, err := s.store.TaskByIdempotencyKey(r.Context(), customerOf(r), key, req)
	if errors.Is(err, taskstore.ErrNotFound) {
		return false
	}
	if err != nil {
		s.answerError(w, r, "looking up an idempotency key", err)
		return true
	}
	t.Shape = req.Shape
	s.writeCreated(w, r, t, true)
	return true
}
