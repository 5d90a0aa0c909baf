package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// validationProblem returns the 400 problem listing every field error.
func validationProblem(detail string, errs []exporttask.FieldError) *exporttask.Problem {
	return &exporttask.Problem{Type: exporttask.ProblemTypeValidation, Title: "Invalid request", Status: http.StatusBadRequest,
		Detail: detail, Message: detail, Errors: errs}
}

// parameterProblem returns the 400 problem for bad path, query or header
// parameters; its detail joins their messages.
func parameterProblem(errs []exporttask.FieldError) *exporttask.Problem {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Message
	}
	return validationProblem("invalid request: "+strings.Join(msgs, "; "), errs)
}

// writeProblem sends p as application/problem+json, with the request id.
func (s *Server) writeProblem(w http.ResponseWriter, r *http.Request, p *exporttask.Problem) {
	q := *p
	q.RequestID = requestIDOf(r)
	if q.Instance == "" {
		q.Instance = r.URL.Path
	}
	b, err := json.Marshal(&q)
	if err != nil {
		// A Problem holds only strings and numbers: this cannot happen,
		// but if it does the client still gets the status.
		s.logger.ErrorContext(r.Context(), "encoding a problem", "error", err)
		http.Error(w, http.StatusText(q.Status), q.Status)
		return
	}
	h := w.Header()
	h.Set("Content-Type", exporttask.ProblemContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(q.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// statusClientClosed is the status of a request whose client went away
// before the answer (nginx's 499): no one reads it, but the log and the
// request metrics tell it from a server error.
const statusClientClosed = 499

// serverError logs err with the request id and answers 500 with a problem
// that names the id and nothing of err. When err comes from the client
// going away (the request's context was cancelled), it is no server error:
// it is logged at INFO and answered 499.
func (s *Server) serverError(w http.ResponseWriter, r *http.Request, msg string, err error) {
	id := requestIDOf(r)
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		s.logger.InfoContext(r.Context(), msg+": the client went away", "method", r.Method, "path", r.URL.Path)
		p := newProblem(statusClientClosed, "The client closed the request.")
		p.Title = "Client Closed Request"
		s.writeProblem(w, r, p)
		return
	}
	s.logger.ErrorContext(r.Context(), msg, "method", r.Method, "path", r.URL.Path,
		"error", err.Error())
	s.writeProblem(w, r, newProblem(http.StatusInternalServerError,
		fmt.Sprintf("The server could not complete the request. Quote request id %s when reporting it.", id)))
}

// writeJSON sends v as application/json with the given status. The body is
// encoded before anything is written, so an encoding failure still becomes
// a clean 500.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	body, err := encodeJSON(v)
	if err != nil {
		s.serverError(w, r, "encoding a response", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// encodeJSON returns v as a json.Encoder writes it: compact, HTML
// characters escaped, a newline at the end. A task, the most frequent
// response, encodes itself so (its MarshalJSON is json.Marshal's), and is
// not made to pass a second time through the encoder's compaction.
func encodeJSON(v any) ([]byte, error) {
	if t, ok := v.(exporttask.Task); ok {
		b, err := t.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// storageFullRetryAfter is the Retry-After of a 507, in seconds: freeing
// disk space is an operator's work, which takes minutes, not moments.
const storageFullRetryAfter = "120"

// answerError answers err with its problem from [problemFor]'s table.
// A full disk (507) is logged at ERROR for the operator and carries
// Retry-After: the request was sound, the server could not keep it. Any
// error outside the table is a server error (see serverError); op names
// what failed, for the log.
func (s *Server) answerError(w http.ResponseWriter, r *http.Request, op string, err error) {
	p, ok := problemFor(err)
	if !ok {
		s.serverError(w, r, op, err)
		return
	}
	if p.Status == http.StatusInsufficientStorage {
		s.logger.ErrorContext(r.Context(), op+": the storage is full", "method", r.Method, "path", r.URL.Path,
			"error", err.Error())
		w.Header().Set("Retry-After", storageFullRetryAfter)
	}
	s.writeProblem(w, r, p)
}
