package server

import (
	"net/http"
	"time"
)

// abortTask handles DELETE /export-tasks/{id}: the task moves to ABORTED,
// unless its status is already final (409).
func (s *Server) abortTask(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	t, err := s.store.Abort(r.Context(), customerOf(r), id, time.Now())
	if err != nil {
		s.storeError(w, r, "aborting a task", err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, s.urls.withURLs(r, t))
}
