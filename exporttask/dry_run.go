package exporttask

// DryRun is the answer to POST /export-tasks/estimate: what a create with
// the same body would cost, found without storing anything.
type DryRun struct {
	EstimatedSize       int64          `json:"estimatedSize"`                 // bytes of artifacts, as the create would record
	EstimatedTime       int64          `json:"estimatedTime"`                 // seconds
	RequiredBytes       int64          `json:"requiredBytes"`                 // what the create would count against the quota: the size plus the stored task
	QuotaBytes          int64          `json:"quotaBytes,omitempty"`          // the customer's quota; absent without one
	RemainingQuotaBytes *int64         `json:"remainingQuotaBytes,omitempty"` // the quota less the stored tasks (0 when they hold more); nil without a quota
	Fits                bool           `json:"fits"`                          // whether the create, made now, would pass the quota check (else 509); true without a quota
	ArtifactTypes       []ArtifactType `json:"artifactTypes"`                 // the types the export would write, in order; empty when the exporter does not say
}
