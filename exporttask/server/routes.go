package server

import (
	"net/http"
)

// routes returns the server's router: the API, the health checks, the
// documentation, and problem bodies for unknown paths and methods.
func (s *Server) routes() (http.Handler, error) {
	mux := http.NewServeMux()
	// A GET pattern also answers HEAD.
	mux.HandleFunc("POST /export-tasks", s.authorize(ScopeWrite, s.createTask))
	mux.HandleFunc("POST /export-tasks/estimate", s.authorize(ScopeWrite, s.estimateTask))
	mux.HandleFunc("GET /export-tasks", s.authorize(ScopeRead, s.listTasks))
	mux.HandleFunc("GET /export-tasks/{id}", s.authorize(ScopeRead, s.getTask))
	mux.HandleFunc("DELETE /export-tasks/{id}", s.authorize(ScopeWrite, s.deleteTask))
	mux.HandleFunc("GET /export-tasks/{id}/artifacts/{name}", s.authorize(ScopeRead, s.downloadArtifact))
	mux.HandleFunc("GET /export-tasks/{id}/deliveries", s.authorize(ScopeRead, s.listDeliveries))
	mux.HandleFunc("POST /export-tasks/{id}/deliveries/{deliveryId}/redeliver", s.authorize(ScopeWrite, s.redeliver))
	// The signing secret lets its holder forge deliveries: a read-only
	// key (a dashboard, say) must not obtain it.
	mux.HandleFunc("GET /webhook-secret", s.authorize(ScopeWrite, s.getWebhookSecret))
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", s.metrics.handler())

	// The same paths without a method catch every other method, so that
	// a 405 carries a problem body and the Allow header.
	mux.HandleFunc("/export-tasks", s.methodNotAllowed("GET, HEAD, POST"))
	mux.HandleFunc("/export-tasks/{id}", s.methodNotAllowed("GET, HEAD, DELETE"))
	mux.HandleFunc("/export-tasks/{id}/artifacts/{name}", s.methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/export-tasks/{id}/deliveries", s.methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/export-tasks/{id}/deliveries/{deliveryId}/redeliver", s.methodNotAllowed("POST"))
	mux.HandleFunc("/webhook-secret", s.methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/healthz", s.methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/readyz", s.methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/metrics", s.methodNotAllowed("GET, HEAD"))
	mux.HandleFunc("/", s.notFound)

	return s.withDocs(s.metrics.instrument(mux))
}

// methodNotAllowed answers 405 with Allow and a problem body.
func (s *Server) methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		s.writeProblem(w, r, newProblem(http.StatusMethodNotAllowed,
			"The method "+r.Method+" is not allowed here; allowed: "+allow+"."))
	}
}

// notFound answers 404 with a problem body for a path the server does not
// serve.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.writeProblem(w, r, newProblem(http.StatusNotFound, "There is nothing at this path."))
}
