package exporttask

import (
	"encoding/json"
	"fmt"
)

// Webhook subscribes a URL to some of a task's events.
type Webhook struct {
	// URL is an absolute http or https URL that receives a POST per event.
	URL string `json:"url"`
	// Events are the events delivered to URL: at least one, no repeats.
	Events []Event `json:"events"`
}

// CreateRequest is the body of POST /export-tasks.
type CreateRequest struct {
	CatalogRecordID string             `json:"catalogRecordID"`
	Domain          Domain             `json:"domain"`
	ROI             *FeatureCollection `json:"ROI,omitempty"`
	ArtifactCRS     string             `json:"artifactCRS"`
	Description     string             `json:"description,omitempty"`
	Keywords        map[string]any     `json:"keywords,omitempty"`
	Parameters      map[string]any     `json:"parameters,omitempty"`
	Webhook         []Webhook          `json:"webhook"`
}

// Artifact is one file a completed task produced.
type Artifact struct {
	Name string       `json:"name"`
	Type ArtifactType `json:"type"`
	// Size is in bytes.
	Size int64 `json:"size,omitempty"`
	// URL is where to download the file; removed when the task expires.
	URL string `json:"url,omitempty"`
	// SHA256 is the hex-encoded SHA-256 digest of the file.
	SHA256 string `json:"sha256,omitempty"`
}

// Task is an export task as the API returns it: the request as stored, plus
// what the service knows of its progress. ID, CatalogRecordID, Domain,
// ArtifactCRS, Webhook, Status, Progress, CreatedAt and Artifacts are always
// present in the JSON (Artifacts possibly empty); every other field is left
// out while it is unknown or empty (never written as null).
type Task struct {
	ID              int64              `json:"id"`
	CatalogRecordID string             `json:"catalogRecordID"`
	Domain          Domain             `json:"domain"`
	ROI             *FeatureCollection `json:"ROI,omitempty"`
	ArtifactCRS     string             `json:"artifactCRS"`
	Description     string             `json:"description,omitempty"`
	Keywords        map[string]any     `json:"keywords,omitempty"`
	Parameters      map[string]any     `json:"parameters,omitempty"`
	Webhook         []Webhook          `json:"webhook"`

	// EstimatedSize is the expected total size of the artifacts, in bytes.
	EstimatedSize int64 `json:"estimatedSize,omitempty"`
	// EstimatedTime is the expected duration of the export, in seconds.
	EstimatedTime int64  `json:"estimatedTime,omitempty"`
	Status        Status `json:"status"`
	// ErrorReason says why a FAILED task failed.
	ErrorReason string `json:"errorReason,omitempty"`
	// Progress is the share of the work done, in percent (0 to 100).
	Progress  int        `json:"progress"`
	Artifacts []Artifact `json:"artifacts"`
	CreatedAt Time       `json:"createdAt"`
	// ExpiredAt is when a completed task's artifacts stop being available.
	ExpiredAt Time `json:"expiredAt,omitzero"`
	// FinishedAt is when the task reached a final status.
	FinishedAt Time `json:"finishedAt,omitzero"`
}

// MarshalJSON writes the task with artifacts and webhook always present: a
// nil slice is written as [] rather than null, so the fields the API
// promises are always there, with their documented types.
func (t Task) MarshalJSON() ([]byte, error) {
	type plain Task // without this method
	p := plain(t)
	if p.Artifacts == nil {
		p.Artifacts = []Artifact{}
	}
	if p.Webhook == nil {
		p.Webhook = []Webhook{}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("exporttask: encoding task %d: %w", t.ID, err)
	}
	return b, nil
}
