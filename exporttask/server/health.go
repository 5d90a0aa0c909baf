package server

import (
	"context"
	"net/http"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// readyTimeout bounds the store ping of GET /readyz.
const readyTimeout = 2 * time.Second

type healthBody struct {
	Status string `json:"status"`
}

// healthz answers 200 while the process serves requests.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, healthBody{Status: "ok"})
}

// readyz answers 200 when the store is reachable and can write (its Ping
// writes a heartbeat), else 503 with a problem body (the cause is logged,
// not sent).
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.logger.ErrorContext(r.Context(), "readiness check: the store is unreachable or cannot write", "error", err.Error())
		s.writeProblem(w, r, exporttask.NewProblem(http.StatusServiceUnavailable, "The task store is unreachable or cannot write."))
		return
	}
	s.writeJSON(w, r, http.StatusOK, healthBody{Status: "ok"})
}
