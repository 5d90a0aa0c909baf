package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// estimateTask handles POST /export-tasks/estimate, the dry run of a
// create: the body is read and checked as a create's is (the same
// problems, the same estimate), and the answer says what the create would
// cost, without storing anything.
func (s *Server) estimateTask(w http.ResponseWriter, r *http.Request) {
	if p := checkJSONContentType(r); p != nil {
		s.writeProblem(w, r, p)
		return
	}
	req, problems, err := s.decodeCreate(w, r)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.writeProblem(w, r, newProblem(http.StatusRequestEntityTooLarge,
				fmt.Sprintf("The request body is larger than %d bytes.", mbe.Limit)))
			return
		}
		s.writeProblem(w, r, validationProblem("The request body could not be read.",
			[]exporttask.FieldError{{Message: "the request body could not be read to its end"}}))
		return
	}
	if len(problems) > 0 {
		s.writeProblem(w, r, (&exporttask.ValidationError{Problems: problems}).Problem())
		return
	}
	est, err := s.exporter.Estimate(r.Context(), req)
	if err != nil {
		s.estimateError(w, r, err)
		return
	}
	// The document the create would store, as the store measures it.
	doc, err := storekit.EncodeTask(storekit.NewTask(taskstore.CreateParams{
		Request: req, EstimatedSize: est.Size, EstimatedTime: est.Time, Now: time.Now()}))
	if err != nil {
		s.serverError(w, r, "measuring the task document", err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, exporttask.DryRun{
		EstimatedSize: est.Size, EstimatedTime: est.Time, RequiredBytes: est.Size + int64(len(doc)),
		QuotaBytes: s.quota, ArtifactTypes: exporttask.ArtifactTypes(req.Domain),
	})
}
