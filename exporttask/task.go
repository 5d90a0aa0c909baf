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

// CreateRequest is the body of POST /export-tasks. Read one from JSON with
// [DecodeCreateRequest]; check one built in Go with [CreateRequest.Validate].
type CreateRequest struct {
	// CatalogRecordID is the UUID of the catalog record to export.
	CatalogRecordID string `json:"catalogRecordID"`
	// Domain is the kind of product the record is.
	Domain Domain `json:"domain"`
	// ROI is the region of interest to cut the export to; nil exports the
	// whole record.
	ROI *FeatureCollection `json:"ROI,omitempty"`
	// ArtifactCRS is the CRS of the artifacts: always [CRS4326].
	ArtifactCRS string `json:"artifactCRS"`
	// Description is free text about the task.
	Description string `json:"description,omitempty"`
	// Keywords are free-form pairs stored with the task.
	Keywords map[string]any `json:"keywords,omitempty"`
	// Parameters are free-form export parameters; unlike keywords, they
	// count when telling duplicate requests apart.
	Parameters map[string]any `json:"parameters,omitempty"`
	// Webhook lists where to POST the task's events: at least one entry.
	// It is the member "webhook" in the v1.6.5 shape, "webhooks" in the
	// v1.7.0 shape (see Shape).
	Webhook []Webhook `json:"webhook"`
	// Shape is the published version the request was written for, which
	// names the member of Webhook; [DecodeCreateRequest] sets it from the
	// body, and a task is encoded in its request's shape. It does not
	// count when telling requests apart.
	Shape RequestShape `json:"-"`
}

// Artifact is one file a completed task produced.
type Artifact struct {
	// Name is the file name.
	Name string `json:"name"`
	// Type says what the file holds; see [ArtifactTypes].
	Type ArtifactType `json:"type"`
	// Size is in bytes.
	Size int64 `json:"size,omitempty"`
	// URL is where to download the file; removed when the task expires.
	URL string `json:"url,omitempty"`
	// SHA256 is the hex-encoded SHA-256 digest of the file.
	SHA256 string `json:"sha256,omitempty"`
}

// Task is an export task as the API returns it: the request as stored
// (the embedded [CreateRequest], whose Webhook accumulates the
// subscriptions of duplicate requests), plus what the service knows of its
// progress. In the JSON, id comes first, then the request's members, then
// the rest. ID, CatalogRecordID, Domain, ArtifactCRS, Webhook, Status,
// Progress, CreatedAt and Artifacts are always present (Artifacts possibly
// empty); every other field is left out while it is unknown or empty (never
// written as null).
type Task struct {
	// ID identifies the task; the store assigns it, from 1 up.
	ID int64 `json:"id"`

	CreateRequest

	// EstimatedSize is the expected total size of the artifacts, in bytes.
	EstimatedSize int64 `json:"estimatedSize,omitempty"`
	// EstimatedTime is the expected duration of the export, in seconds.
	EstimatedTime int64 `json:"estimatedTime,omitempty"`
	// Status is where the task is in its life; see [Transition].
	Status Status `json:"status"`
	// ErrorReason says why a FAILED task failed.
	ErrorReason string `json:"errorReason,omitempty"`
	// Progress is the share of the work done, in percent (0 to 100).
	Progress int `json:"progress"`
	// Attempts is how many times a worker has started the export: 1 on
	// the first run, more after transient failures or crashes.
	Attempts int `json:"attempts,omitempty"`
	// Artifacts are the files a COMPLETED task produced; empty before.
	Artifacts []Artifact `json:"artifacts"`
	// CreatedAt is when the task was created.
	CreatedAt Time `json:"createdAt"`
	// ExpiredAt is when a completed task's artifacts stop being available.
	ExpiredAt Time `json:"expiredAt,omitzero"`
	// FinishedAt is when the task reached a final status.
	FinishedAt Time `json:"finishedAt,omitzero"`
}

// MarshalJSON writes the task with artifacts and webhook always present: a
// nil slice is written as [] rather than null, so the fields the API
// promises are always there, with their documented types. The webhook
// array is named as in the task's Shape: "webhook" (v1.6.5) or "webhooks"
// (v1.7.0).
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
	if t.Shape == ShapeV170 {
		return renameWebhookMember(b)
	}
	return b, nil
}
