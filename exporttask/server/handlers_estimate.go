package server

import (
	"net/http"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// estimateTask handles POST /export-tasks/estimate, the dry run of a
// create: the body is read and checked as a create's is (the same
// problems, the same estimate), and the answer says what the create would
// cost (estimates, the bytes the quota would count, the quota left and
// whether the create fits in it) and the types of the artifacts the
// exporter would write, without storing anything.
func (s *Server) estimateTask(w http.ResponseWriter, r *http.Request) {
	if p := checkJSONContentType(r); p != nil {
		s.writeProblem(w, r, p)
		return
	}
	req, ok := s.readCreate(w, r)
	if !ok {
		return
	}
	est, err := s.exporter.Estimate(r.Context(), req)
	if err != nil {
		s.answerError(w, r, "estimating an export", err)
		return
	}
	// The document the create would store, as the store measures it.
	doc, err := storekit.EncodeTask(storekit.NewTask(taskstore.CreateParams{
		Request: req, EstimatedSize: est.Size, EstimatedTime: est.Time, Now: time.Now()}))
	if err != nil {
		s.serverError(w, r, "measuring the task document", err)
		return
	}
	dry := exporttask.DryRun{
		EstimatedSize: est.Size, EstimatedTime: est.Time, RequiredBytes: est.Size + int64(len(doc)),
		QuotaBytes: s.quota, Fits: true, ArtifactTypes: est.Artifacts,
	}
	if dry.ArtifactTypes == nil {
		dry.ArtifactTypes = []exporttask.ArtifactType{}
	}
	if s.quota > 0 {
		// As the create's quota check (package storekit) counts it.
		used, err := s.store.Usage(r.Context(), customerOf(r))
		if err != nil {
			s.answerError(w, r, "reading the storage in use", err)
			return
		}
		remaining := s.quota - used
		dry.Fits = dry.RequiredBytes <= remaining
		remaining = max(remaining, 0)
		dry.RemainingQuotaBytes = &remaining
	}
	s.writeJSON(w, r, http.StatusOK, dry)
}
