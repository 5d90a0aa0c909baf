package exporttask

// DryRun is the answer to POST /export-tasks/estimate: what a create with
// the same body would cost, found without storing anything.
type DryRun struct {
	// EstimatedSize is the expected total size of the artifacts, in bytes,
	// as the create would record it.
	EstimatedSize int64 `json:"estimatedSize"`
	// EstimatedTime is the expected duration of the export, in seconds.
	EstimatedTime int64 `json:"estimatedTime"`
	// RequiredBytes is what the create would count against the storage
	// quota: the estimated size plus the task's stored document.
	RequiredBytes int64 `json:"requiredBytes"`
	// QuotaBytes is the customer's storage quota; absent when there is
	// none.
	QuotaBytes int64 `json:"quotaBytes,omitempty"`
	// ArtifactTypes are the kinds of file an export of the request's
	// domain produces (see [ArtifactTypes]); the names are the
	// exporter's, known once it has run.
	ArtifactTypes []ArtifactType `json:"artifactTypes"`
}
