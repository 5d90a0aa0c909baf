package exporttask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Problem type URIs of the domain errors, as documented in openapi.yaml.
const (
	problemTypeBase              = "https://openapi-viewer.dev/problems/"
	problemTypeValidation        = problemTypeBase + "validation-error"
	problemTypeInvalidTransition = problemTypeBase + "invalid-transition"
	problemTypeQuotaExceeded     = problemTypeBase + "quota-exceeded"
)

// statusQuotaExceeded is the status of a create refused for lack of storage
// quota (the reference service's 509).
const statusQuotaExceeded = 509

// plainProblem returns an about:blank problem: a plain HTTP error whose title
// is the status text.
func plainProblem(status int, detail string) *Problem {
	return &Problem{Type: "about:blank", Title: http.StatusText(status), Status: status,
		Detail: detail, Message: detail}
}

// validationProblem returns the 400 problem listing every field error.
func validationProblem(detail string, errs []FieldError) *Problem {
	return &Problem{Type: problemTypeValidation, Title: "Invalid request", Status: http.StatusBadRequest,
		Detail: detail, Message: detail, Errors: errs}
}

// writeProblem sends p as application/problem+json, with the request id.
func (s *Server) writeProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	q := *p
	q.RequestID = requestIDOf(r)
	if q.Instance == "" {
		q.Instance = r.URL.Path
	}
	b, err := json.Marshal(&q)
	if err != nil {
		// A Problem holds only strings and numbers: this cannot happen,
		// but if it does the client still gets the status.
		s.logger.ErrorContext(r.Context(), "encoding a problem", "requestId", q.RequestID, "error", err)
		http.Error(w, http.StatusText(q.Status), q.Status)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ProblemContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(q.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// serverError logs err with the request id and answers 500 with a problem
// that names the id and nothing of err.
func (s *Server) serverError(w http.ResponseWriter, r *http.Request, msg string, err error) {
	id := requestIDOf(r)
	s.logger.ErrorContext(r.Context(), msg, "requestId", id, "method", r.Method, "path", r.URL.Path,
		"error", err.Error())
	s.writeProblem(w, r, plainProblem(http.StatusInternalServerError,
		fmt.Sprintf("The server could not complete the request. Quote request id %s when reporting it.", id)))
}

// writeJSON sends v as application/json with the given status. The body is
// encoded before anything is written, so an encoding failure still becomes
// a clean 500.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		s.serverError(w, r, "encoding a response", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

// storeError answers an error of the Store: 404 for ErrNotFound, 409 for
// ErrConflict, 509 for a *QuotaError, 500 (logged) for anything else.
func (s *Server) storeError(w http.ResponseWriter, r *http.Request, op string, err error) {
	var qe *QuotaError
	switch {
	case errors.Is(err, ErrNotFound):
		s.writeProblem(w, r, plainProblem(http.StatusNotFound, "No export task with this id."))
	case errors.Is(err, ErrConflict):
		detail := "The task is in a final status and cannot be aborted."
		var te *TransitionError
		if errors.As(err, &te) {
			detail = fmt.Sprintf("The task is %s, a final status: it cannot be aborted.", te.From)
		}
		s.writeProblem(w, r, &Problem{Type: problemTypeInvalidTransition, Title: "Invalid status transition",
			Status: http.StatusConflict, Detail: detail, Message: detail})
	case errors.As(err, &qe):
		quota, remaining := qe.Quota, max(qe.Remaining, 0)
		detail := fmt.Sprintf("The task needs an estimated %d bytes but only %d of the customer's %d bytes of storage quota remain.",
			qe.Requested, remaining, quota)
		s.writeProblem(w, r, &Problem{Type: problemTypeQuotaExceeded, Title: "Storage quota exceeded",
			Status: statusQuotaExceeded, Detail: detail, Message: detail,
			QuotaBytes: &quota, RemainingBytes: &remaining})
	default:
		s.serverError(w, r, op, err)
	}
}
