package exporttask

import (
	"encoding/json"
	"fmt"
)

// Webhook subscribes a URL to some of a task's events.
type Webhook struct {
	URL    string  `json:"url"`    // an absolute http or https URL that receives a POST per event
	Events []Event `json:"events"` // the events delivered to URL: at least one, no repeats
}

// CreateRequest is the body of POST /export-tasks. Read one from JSON with
// [DecodeCreateRequest]; check one built in Go with [CreateRequest.Validate].
type CreateRequest struct {
	CatalogRecordID string             `json:"catalogRecordID"` // the UUID of the record to export
	Domain          Domain             `json:"domain"`          // the kind of product the record is
	ROI             *FeatureCollection `json:"ROI,omitempty"`   // the region to cut to; nil for the whole record
	ArtifactCRS     string             `json:"artifactCRS"`     // always [CRS4326]
	Description     string             `json:"description,omitempty"`
	Keywords        map[string]any     `json:"keywords,omitempty"`   // free-form, stored with the task
	Parameters      map[string]any     `json:"parameters,omitempty"` // free-form; unlike keywords, they tell duplicates apart
	// Webhook lists where to POST the task's events (at least one): the
	// member "webhook" in the v1.6.5 Shape, "webhooks" in v1.7.0.
	Webhook []Webhook `json:"webhook"`
	// Shape is the version the request was written in, set by
	// [DecodeCreateRequest]; a task is answered in it. It does not tell
	// duplicates apart.
	Shape RequestShape `json:"-"`
}

// Artifact is one file a completed task produced.
type Artifact struct {
	Name   string       `json:"name"`             // the file name
	Type   ArtifactType `json:"type"`             // see [ArtifactTypes]
	Size   int64        `json:"size,omitempty"`   // bytes
	URL    string       `json:"url,omitempty"`    // where to download it, until the task expires
	SHA256 string       `json:"sha256,omitempty"` // hex digest
}

// Task is an export task as the API returns it: the request as stored (its
// Webhook gathers the subscriptions of duplicate requests) and its progress.
// ID, the request's required members, Status, Progress, CreatedAt and
// Artifacts are always in the JSON; the rest only when known and not empty.
type Task struct {
	ID int64 `json:"id"` // assigned by the store, from 1 up

	CreateRequest

	EstimatedSize int64      `json:"estimatedSize,omitempty"` // bytes
	EstimatedTime int64      `json:"estimatedTime,omitempty"` // seconds
	Status        Status     `json:"status"`                  // see [Transition]
	ErrorReason   string     `json:"errorReason,omitempty"`   // why a FAILED task failed
	Progress      int        `json:"progress"`                // percent
	Attempts      int        `json:"attempts,omitempty"`      // how many times a worker has started the export
	Artifacts     []Artifact `json:"artifacts"`               // the files of a COMPLETED task
	CreatedAt     Time       `json:"createdAt"`
	ExpiredAt     Time       `json:"expiredAt,omitzero"`  // when a completed task's artifacts go
	FinishedAt    Time       `json:"finishedAt,omitzero"` // when the task reached a final status
}

// MarshalJSON writes the task with artifacts and webhook as [] when nil,
// the webhook array named as the task's Shape says.
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
