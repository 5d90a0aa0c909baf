package server

import (
	"errors"
	"mime"
	"net/http"
	"path"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// presignExpiry is how long a presigned download URL stays valid: long
// enough to start the download, short enough that a leaked URL soon stops
// working.
const presignExpiry = 5 * time.Minute

// downloadArtifact handles GET and HEAD /export-tasks/{id}/artifacts/{name}:
// the file of a COMPLETED task of the caller's customer, with
// Content-Length, a strong ETag (its SHA-256), Range and conditional
// requests (see serveFile). Another customer's task, an unknown file, or a
// task that is not COMPLETED (no downloadable files yet, or failed/aborted)
// is 404; an EXPIRED task is 410. A dismissal or expiry that removes the
// file between the task's read and the file's opening is 404 or 410 too.
func (s *Server) downloadArtifact(w http.ResponseWriter, r *http.Request) {
	id, ok := s.pathID(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	t, err := s.store.Get(r.Context(), customerOf(r), id)
	if err != nil {
		s.answerError(w, r, "reading a task", err)
		return
	}
	art, found := findArtifact(t, name)
	switch {
	case t.Status == exporttask.StatusExpired && found:
		s.writeProblem(w, r, newProblem(http.StatusGone,
			"The task expired at "+t.ExpiredAt.Time.UTC().Format(time.RFC3339)+"; its files were deleted."))
		return
	case t.Status != exporttask.StatusCompleted:
		s.writeProblem(w, r, newProblem(http.StatusNotFound,
			"The task is "+string(t.Status)+"; only a COMPLETED task's files can be downloaded."))
		return
	case !found:
		s.writeProblem(w, r, newProblem(http.StatusNotFound, "The task has no artifact with this name."))
		return
	}
	key := artifactkey.Key(t.ID, art.Name)
	if s.presigner != nil {
		u, err := s.presigner.PresignGet(r.Context(), key, presignExpiry, art.Name)
		if err != nil {
			s.serverError(w, r, "presigning a download", err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, u, http.StatusFound)
		return
	}
	obj, err := s.artifacts.Open(r.Context(), key)
	if errors.Is(err, artifact.ErrNotFound) {
		s.artifactGone(w, r, id)
		return
	}
	if err != nil {
		s.serverError(w, r, "opening an artifact", err)
		return
	}
	defer obj.Close()
	etag := ""
	if art.SHA256 != "" {
		etag = `"` + art.SHA256 + `"`
	}
	s.serveFile(w, r, fileResponse{obj: obj, contentType: contentType(art), etag: etag,
		disposition: mime.FormatMediaType("attachment", map[string]string{"filename": art.Name})})
}

// artifactGone answers a download whose file is missing although its task
// was read as COMPLETED: a dismissal (which deletes the files, then the
// task) or an expiry ran in between. The task is read again: gone is 404,
// EXPIRED is 410, and a task whose files are being deleted is 404.
func (s *Server) artifactGone(w http.ResponseWriter, r *http.Request, id int64) {
	t, err := s.store.Get(r.Context(), customerOf(r), id)
	switch {
	case err != nil:
		s.answerError(w, r, "reading a task", err)
	case t.Status == exporttask.StatusExpired:
		s.writeProblem(w, r, newProblem(http.StatusGone,
			"The task expired at "+t.ExpiredAt.Time.UTC().Format(time.RFC3339)+"; its files were deleted."))
	default:
		s.logger.InfoContext(r.Context(), "download of a file deleted since the task was read",
			"path", r.URL.Path, "status", string(t.Status))
		s.writeProblem(w, r, newProblem(http.StatusNotFound,
			"The task's files are being deleted (the task is being dismissed or expiring)."))
	}
}

// findArtifact returns t's artifact named name.
func findArtifact(t exporttask.Task, name string) (exporttask.Artifact, bool) {
	for _, a := range t.Artifacts {
		if a.Name == name {
			return a, true
		}
	}
	return exporttask.Artifact{}, false
}

// contentType is the media type of an artifact: by its type where that
// fixes the format, else by its file name's extension.
func contentType(a exporttask.Artifact) string {
	switch a.Type {
	case exporttask.ArtifactGPKG:
		return "application/geopackage+sqlite3"
	case exporttask.ArtifactModel:
		return "image/tiff; application=geotiff"
	case exporttask.Artifact3DModel:
		return "application/zip"
	case exporttask.ArtifactROI:
		return "application/geo+json"
	case exporttask.ArtifactMetadata:
		return "application/json"
	}
	if ct := mime.TypeByExtension(path.Ext(a.Name)); ct != "" {
		return ct
	}
	return "application/octet-stream"
}
