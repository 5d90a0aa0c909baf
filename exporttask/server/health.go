package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// readyTimeout bounds the store ping of GET /readyz.
const readyTimeout = 2 * time.Second

// readyProbeInterval is the most often GET /readyz probes the store: the
// probe writes (a heartbeat row), /readyz needs no key, and a flood of it
// must not become a flood of writes. Answers within the interval repeat
// the last probe's outcome.
const readyProbeInterval = time.Second

type healthBody struct {
	Status string `json:"status"`
}

// readiness remembers the last store probe of GET /readyz.
type readiness struct {
	mu  sync.Mutex
	at  time.Time // when the last probe ended; zero: none yet
	err error     // its outcome
}

// healthz answers 200 while the process serves requests.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, healthBody{Status: "ok"})
}

// readyz answers 200 when the store is reachable and can write (its Ping
// writes a heartbeat and, on SQLite, checks the disk's free space), else
// 503 with a problem body (the cause is logged, not sent). The store is
// probed at most once per readyProbeInterval.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if probed, err := s.probeStore(r.Context()); err != nil {
		detail := "The task store is unreachable or cannot write."
		if errors.Is(err, exporttask.ErrStorageFull) {
			detail = "The task store's disk is full."
		}
		if probed { // a repeated outcome was logged when it was found
			s.logger.ErrorContext(r.Context(), "readiness check: the store is unreachable or cannot write", "error", err.Error())
		}
		s.writeProblem(w, r, newProblem(http.StatusServiceUnavailable, detail))
		return
	}
	s.writeJSON(w, r, http.StatusOK, healthBody{Status: "ok"})
}

// probeStore pings the store (probed is true), or returns the outcome of a
// ping that ended less than readyProbeInterval ago. Concurrent callers
// wait for one ping. The ping does not end with the request that asked for
// it, so a client going away cannot leave a failure behind for the others.
func (s *Server) probeStore(ctx context.Context) (probed bool, err error) {
	s.ready.mu.Lock()
	defer s.ready.mu.Unlock()
	if !s.ready.at.IsZero() && time.Since(s.ready.at) < readyProbeInterval {
		return false, s.ready.err
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyTimeout)
	defer cancel()
	s.ready.err = s.store.Ping(pctx)
	s.ready.at = time.Now()
	return true, s.ready.err
}
