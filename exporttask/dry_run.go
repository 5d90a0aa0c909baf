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
	// RemainingQuotaBytes is what the quota leaves the customer now: the
	// quota less what the customer's stored tasks hold, and 0 when they
	// hold more; absent (nil) when there is no quota.
	RemainingQuotaBytes *int64 `json:"remainingQuotaBytes,omitempty"`
	// Fits reports whether RequiredBytes fits in RemainingQuotaBytes,
	// that is whether the create, made now, would pass the quota check
	// (a create refused by it is answered 509); always true when there is
	// no quota.
	Fits bool `json:"fits"`
	// ArtifactTypes are the types of the artifacts the export would
	// write, in the order of the completed task's artifacts, as the
	// exporter says (see [Estimate].Artifacts); empty when it does not
	// say. The names of the files are the exporter's, known once it has
	// run.
	ArtifactTypes []ArtifactType `json:"artifactTypes"`
}
