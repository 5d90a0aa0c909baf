package export

import (
	"context"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Exporter does the export work behind the tasks: it estimates a request
// when the task is created and writes the artifacts when a worker runs it.
// [CatalogExporter] is the real one, package export/simulate a stand-in.
// It must be safe for concurrent use.
type Exporter interface {
	// Estimate forecasts a validated request, before the task is stored;
	// its size counts against the customer's quota.
	Estimate(ctx context.Context, r exporttask.CreateRequest) (Estimate, error)
	// Export writes t's artifacts through out and returns them (without
	// URL), reporting progress through out; it stops when out.Progress or
	// ctx says so. A [PermanentError] fails the task at once; any other
	// error is retried, and its text, free of internals, becomes the last
	// attempt's errorReason. It calls [Pace] with ctx around each chunk
	// of its CPU work, so a worker can hold large exports back while small
	// ones run.
	Export(ctx context.Context, t exporttask.Task, out Output) ([]exporttask.Artifact, error)
}

// Estimate is an [Exporter]'s forecast for a request.
type Estimate struct {
	Size int64 // total size of the artifacts, bytes
	Time int64 // duration of the export, seconds
	// SourceVersion identifies the source data (catalog.Source.Version);
	// it is part of the request's identity, so the same request after
	// the data was replaced is a new export. Empty when unknown.
	SourceVersion string
	// Artifacts are the types Export would return, in order; nil when
	// the exporter does not say.
	Artifacts []exporttask.ArtifactType
}
