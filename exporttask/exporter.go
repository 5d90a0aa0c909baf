package exporttask

import "context"

// Exporter does the export work behind the tasks: it estimates a request's
// cost when the task is created and produces the artifacts when a worker
// runs it. The module ships two: package export (the real exporters over a
// catalog) and package export/simulate (a stand-in for load tests).
//
// Implementations must be safe for concurrent use: a Runner (package
// worker) calls Export from several workers at once.
type Exporter interface {
	// Estimate returns the expected size and duration of an export. It is
	// called on a validated request, before the task is stored; its size
	// counts against the customer's quota.
	Estimate(ctx context.Context, r CreateRequest) (Estimate, error)

	// Export runs the export of t: it writes the artifact files through
	// out and returns them (name, type, size, SHA-256; the server fills in
	// the download URL). It reports progress through out as work is done;
	// when out.Progress returns an error the export must stop and return it
	// (the task was aborted or its lease lost). Export must return soon
	// after ctx is done. A failure that retrying cannot fix is returned as
	// a [PermanentError] whose Reason becomes the task's errorReason; any
	// other error is retried up to the worker's maximum attempts, and its
	// text becomes the errorReason of the last one, so it should say what
	// went wrong without internals. An export calls [Pace] with ctx
	// around each chunk of its CPU work, so that a worker can hold large
	// exports back while small ones run.
	Export(ctx context.Context, t Task, out Output) ([]Artifact, error)
}

// Estimate is an [Exporter]'s forecast for a request.
type Estimate struct {
	Size int64 // total size of the artifacts, bytes
	Time int64 // duration of the export, seconds
	// SourceVersion identifies the version of the source data the export
	// would read (catalog.Source.Version); a server makes it part of the
	// request's identity (its dedup key and the fingerprint recorded with
	// an Idempotency-Key), so the same request after the record's data
	// was replaced is a new export, not a replay. Empty when unknown.
	SourceVersion string
	// Artifacts are the types of the artifacts the export would write,
	// in the order Export returns them; nil when the exporter does not
	// say. The dry run (POST /export-tasks/estimate) reports them.
	Artifacts []ArtifactType
}
