package exporttask

import "context"

// Exporter does the export work behind the tasks: it estimates a request's
// cost when the task is created and produces the artifacts when a worker
// runs it. The Simulator of package export/simulate is the implementation
// the module ships.
//
// Implementations must be safe for concurrent use: a Runner (package
// worker) calls Export from several workers at once.
type Exporter interface {
	// Estimate returns the expected size and duration of an export. It is
	// called on a validated request, before the task is stored; its size
	// counts against the customer's quota.
	Estimate(ctx context.Context, r CreateRequest) (Estimate, error)

	// Export runs the export of t and returns its artifacts. It calls
	// report with the progress made (0 to 100, percent) from time to time;
	// when report returns an error the export must stop and return it
	// (the task was aborted or its lease lost). Export must return soon
	// after ctx is done. An error's text becomes the task's errorReason,
	// which the client sees: it should say what went wrong without
	// internals.
	Export(ctx context.Context, t Task, report func(progress int) error) ([]Artifact, error)
}

// Estimate is an [Exporter]'s forecast for a request.
type Estimate struct {
	Size int64 // total size of the artifacts, bytes
	Time int64 // duration of the export, seconds
}
