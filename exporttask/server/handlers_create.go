package server

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// createTask handles POST /export-tasks.
func (s *Server) createTask(w http.ResponseWriter, r *http.Request) {
	if !s.allowCreate(w, r) {
		return
	}
	if p := checkJSONContentType(r); p != nil {
		s.writeProblem(w, r, p)
		return
	}
	idemKey := r.Header.Get(exporttask.IdempotencyKeyHeader)
	if len(idemKey) > exporttask.MaxIdempotencyKeyLength {
		s.writeProblem(w, r, parameterProblem([]exporttask.FieldError{exporttask.ParameterError(exporttask.IdempotencyKeyHeader,
			fmt.Sprintf("the Idempotency-Key header is longer than %d characters", exporttask.MaxIdempotencyKeyLength))}))
		return
	}
	req, ok := s.readCreate(w, r)
	if !ok {
		return
	}

	// The estimate comes first: it gives the version of the record's
	// data, which is part of the request's identity, so a key used
	// before the record was registered again with other data is not
	// replayed. The key is looked up once, in the store's transaction.
	est, err := s.exporter.Estimate(r.Context(), req)
	if err != nil {
		s.answerError(w, r, "estimating an export", err)
		return
	}
	id, err := taskstore.Identify(req, est.SourceVersion)
	if err != nil {
		s.serverError(w, r, "identifying the request", err)
		return
	}
	t, replayed, err := s.store.Create(r.Context(), taskstore.CreateParams{
		Customer:       customerOf(r),
		Request:        req,
		EstimatedSize:  est.Size,
		EstimatedTime:  est.Time,
		Identity:       id,
		IdempotencyKey: idemKey,
		Quota:          s.quota,
		Now:            time.Now(),
	})
	if err != nil {
		s.answerError(w, r, "creating a task", err)
		return
	}
	t.Shape = req.Shape // a duplicate of another shape's task is answered as asked
	s.writeCreated(w, r, t, replayed)
}

// writeCreated answers a create with task t: 201, its Location and, when
// t existed before, the replayed header.
func (s *Server) writeCreated(w http.ResponseWriter, r *http.Request, t exporttask.Task, replayed bool) {
	w.Header().Set("Location", "/export-tasks/"+strconv.FormatInt(t.ID, 10))
	if replayed {
		w.Header().Set(exporttask.ReplayedHeader, "true")
	}
	s.writeJSON(w, r, http.StatusCreated, s.urls.withURLs(r, t))
}

// checkJSONContentType returns a 415 problem unless the request body is
// declared application/json.
func checkJSONContentType(r *http.Request) *exporttask.Problem {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		got := ct
		if got == "" {
			got = "none"
		}
		return newProblem(http.StatusUnsupportedMediaType,
			fmt.Sprintf("The request body must be application/json (Content-Type: %s).", got))
	}
	return nil
}

// readCreate reads and checks a create's body, as create and its dry run
// both do: on any problem it writes the answer (413 for a body too large,
// 400 with every problem) and returns false.
func (s *Server) readCreate(w http.ResponseWriter, r *http.Request) (exporttask.CreateRequest, bool) {
	req, problems, err := s.decodeCreate(w, r)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.writeProblem(w, r, newProblem(http.StatusRequestEntityTooLarge,
				fmt.Sprintf("The request body is larger than %d bytes.", mbe.Limit)))
			return exporttask.CreateRequest{}, false
		}
		s.writeProblem(w, r, validationProblem("The request body could not be read.",
			[]exporttask.FieldError{{Message: "the request body could not be read to its end"}}))
		return exporttask.CreateRequest{}, false
	}
	if len(problems) > 0 {
		s.writeProblem(w, r, (&exporttask.ValidationError{Problems: problems}).Problem())
		return exporttask.CreateRequest{}, false
	}
	return req, true
}

// decodeCreate reads the body (at most MaxBodyBytes) and returns the request
// with every problem the client must fix: decoding and validation errors,
// then webhook URLs the server may not call (Config.CheckWebhookURL). The
// webhook URLs are returned in the form that check returns, which is
// stored. err is set only when the body
// could not be read (too large: *http.MaxBytesError).
func (s *Server) decodeCreate(w http.ResponseWriter, r *http.Request) (exporttask.CreateRequest, []exporttask.FieldError, error) {
	body := http.MaxBytesReader(w, r.Body, exporttask.MaxBodyBytes)
	req, err := exporttask.DecodeCreateRequest(body)
	var problems []exporttask.FieldError
	if err != nil {
		var ve *exporttask.ValidationError
		if !errors.As(err, &ve) {
			return exporttask.CreateRequest{}, nil, err
		}
		problems = append(problems, ve.Problems...)
	}
	reported := make(map[string]bool, len(problems))
	for _, p := range problems {
		reported[p.Pointer] = true
	}
	for i, wh := range req.Webhook {
		ptr := fmt.Sprintf("/%s/%d/url", req.Shape.WebhookMember(), i)
		if reported[ptr] || wh.URL == "" {
			continue
		}
		norm, err := s.checkURL(wh.URL)
		if err != nil {
			problems = append(problems, exporttask.FieldError{Pointer: ptr, Message: err.Error()})
			continue
		}
		req.Webhook[i].URL = norm
	}
	return req, problems, nil
}
