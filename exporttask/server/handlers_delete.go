package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// deleteTask handles DELETE /export-tasks/{id}. A live task (PENDING,
// IN_PROGRESS, PAUSED) moves to ABORTED: 200 with the task. A final one
// (COMPLETED, FAILED, ABORTED, EXPIRED, ARCHIVED) is dismissed: 204, and the
// task is gone (404) after.
//
// Abort decides atomically which case applies: it refuses a final task with
// ErrConflict, which is then dismissed, so a task that finishes while the
// request runs is dismissed rather than refused.
func (s *Server) deleteTask(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	t, err := s.store.Abort(r.Context(), customerOf(r), id, time.Now())
	switch {
	case err == nil:
		s.writeJSON(w, r, http.StatusOK, s.urls.withURLs(r, t))
	case errors.Is(err, taskstore.ErrConflict):
		if err := s.dismiss(r, id); err != nil {
			s.answerError(w, r, "dismissing a task", err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		s.answerError(w, r, "aborting a task", err)
	}
}

// dismiss removes the customer's final task id and its files.
//
// The files go first, the row last: the store never names a task whose
// files were all deleted by a completed dismissal, and no file outlives its
// task row. When deleting the files fails (or the process stops between the
// two steps), the task stays, perhaps with some of its files gone (their
// downloads answer 404); repeating the DELETE finishes the dismissal.
func (s *Server) dismiss(r *http.Request, id int64) error {
	if err := s.artifacts.DeletePrefix(r.Context(), artifactkey.Prefix(id)); err != nil {
		return fmt.Errorf("deleting the files of task %d: %w", id, err)
	}
	return s.store.Dismiss(r.Context(), customerOf(r), id)
}
