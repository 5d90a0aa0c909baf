package server

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/apiparam"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// getTask handles GET /export-tasks/{id}.
func (s *Server) getTask(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	t, err := s.store.Get(r.Context(), customerOf(r), id)
	if err != nil {
		s.answerError(w, r, "reading a task", err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, s.urls.withURLs(r, t))
}

// listTasks handles GET /export-tasks: the customer's tasks, newest first,
// with the next page in a Link header.
func (s *Server) listTasks(w http.ResponseWriter, r *http.Request) {
	lq, problems := parseListQuery(r.URL.Query())
	if len(problems) > 0 {
		s.writeProblem(w, r, parameterProblem(problems))
		return
	}
	tasks, more, err := s.store.List(r.Context(), taskstore.ListParams{
		Customer: customerOf(r), Status: lq.status, Before: lq.before, Limit: lq.limit,
	})
	if err != nil {
		s.answerError(w, r, "listing tasks", err)
		return
	}
	if tasks == nil {
		tasks = []exporttask.Task{}
	}
	for i := range tasks {
		tasks[i] = s.urls.withURLs(r, tasks[i])
	}
	if more && len(tasks) > 0 {
		w.Header().Set("Link", "<"+nextPageURL(lq, tasks[len(tasks)-1].ID)+`>; rel="next"`)
	}
	s.writeJSON(w, r, http.StatusOK, tasks)
}

// nextPageURL is the URL of the page after the one ending with task id
// last, with the same limit and status.
func nextPageURL(lq listQuery, last int64) string {
	q := url.Values{}
	q.Set("limit", strconv.Itoa(lq.limit))
	if lq.status != "" {
		q.Set("status", string(lq.status))
	}
	q.Set("cursor", apiparam.FormatCursor(last))
	return "/export-tasks?" + q.Encode()
}

// pathID reads the {id} path value, answering 400 when it is not a valid
// task id.
func (s *Server) pathID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := apiparam.ParseTaskID(r.PathValue("id"))
	if err != nil {
		s.writeProblem(w, r, parameterProblem([]exporttask.FieldError{exporttask.ParameterError("id", err.Error())}))
		return 0, false
	}
	return id, true
}
