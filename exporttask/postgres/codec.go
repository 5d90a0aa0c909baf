package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// millis is t as stored in a time column: Unix milliseconds, 0 for none.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// live reports whether a task in status s counts against its customer's
// storage quota.
func live(s exporttask.Status) bool {
	switch s {
	case exporttask.StatusPending, exporttask.StatusInProgress, exporttask.StatusPaused, exporttask.StatusCompleted:
		return true
	}
	return false
}

// encodeTask returns the JSON document stored for t. Webhook and Artifacts
// are stored as arrays, never null.
func encodeTask(t exporttask.Task) ([]byte, error) {
	if t.Webhook == nil {
		t.Webhook = []exporttask.Webhook{}
	}
	if t.Artifacts == nil {
		t.Artifacts = []exporttask.Artifact{}
	}
	t.ID = 0 // the id column is authoritative
	b, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("encoding task: %w", err)
	}
	return b, nil
}

// decodeTask returns the task with that id and stored document.
func decodeTask(id int64, doc []byte) (exporttask.Task, error) {
	var t exporttask.Task
	if err := json.Unmarshal(doc, &t); err != nil {
		return exporttask.Task{}, fmt.Errorf("decoding task %d: %w", id, err)
	}
	t.ID = id
	if t.Webhook == nil {
		t.Webhook = []exporttask.Webhook{}
	}
	if t.Artifacts == nil {
		t.Artifacts = []exporttask.Artifact{}
	}
	return t, nil
}

// newTask builds the PENDING task that p asks for.
func newTask(p exporttask.CreateParams) exporttask.Task {
	r := p.Request
	webhooks, _ := exporttask.MergeWebhooks(nil, r.Webhook)
	return exporttask.Task{
		CatalogRecordID: r.CatalogRecordID,
		Domain:          r.Domain,
		ROI:             r.ROI,
		ArtifactCRS:     r.ArtifactCRS,
		Description:     r.Description,
		Keywords:        r.Keywords,
		Parameters:      r.Parameters,
		Webhook:         webhooks,
		EstimatedSize:   p.EstimatedSize,
		EstimatedTime:   p.EstimatedTime,
		Status:          exporttask.StatusPending,
		CreatedAt:       exporttask.NewTime(p.Now),
	}
}
