package storekit

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Millis is t as stored in a time column: Unix milliseconds, 0 for none.
func Millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Live reports whether a task in status s counts against its customer's
// storage quota.
func Live(s exporttask.Status) bool {
	switch s {
	case exporttask.StatusPending, exporttask.StatusInProgress, exporttask.StatusPaused, exporttask.StatusCompleted:
		return true
	}
	return false
}

// EncodeTask returns the JSON document stored for t. Webhook and Artifacts
// are stored as arrays, never null; the id is left out (the id column is
// authoritative).
func EncodeTask(t exporttask.Task) ([]byte, error) {
	t.ID = 0
	// As json.Marshal(t) would, without its second pass over the bytes;
	// MarshalJSON writes nil Webhook and Artifacts as empty arrays.
	b, err := t.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding task: %w", err)
	}
	return b, nil
}

// DecodeTask returns the task with that id and stored document (see
// [EncodeTask]).
func DecodeTask(id int64, doc []byte) (exporttask.Task, error) {
	var t exporttask.Task
	if err := json.Unmarshal(doc, &t); err != nil {
		return exporttask.Task{}, fmt.Errorf("decoding task %d: %w", id, err)
	}
	return WithID(t, id), nil
}

// WithID returns t with its id, as the stores return tasks: Webhook and
// Artifacts are empty arrays, never nil. For a task just stored as
// EncodeTask(t), it is the task DecodeTask would read back, without
// decoding the document; t's maps and slices are shared, not copied.
func WithID(t exporttask.Task, id int64) exporttask.Task {
	t.ID = id
	if t.Webhook == nil {
		t.Webhook = []exporttask.Webhook{}
	}
	if t.Artifacts == nil {
		t.Artifacts = []exporttask.Artifact{}
	}
	return t
}

// NewTask builds the PENDING task that p asks for, its webhooks merged by
// URL.
func NewTask(p taskstore.CreateParams) exporttask.Task {
	r := p.Request
	webhooks, _ := MergeWebhooks(nil, r.Webhook)
	r.Webhook = webhooks
	return exporttask.Task{
		CreateRequest: r,
		EstimatedSize: p.EstimatedSize,
		EstimatedTime: p.EstimatedTime,
		Status:        exporttask.StatusPending,
		CreatedAt:     exporttask.NewTime(p.Now),
	}
}
