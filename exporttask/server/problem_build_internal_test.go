package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestNewProblem(t *testing.T) {
	p := newProblem(http.StatusNotFound, "task 7 not found")
	assert.Equal(t, &exporttask.Problem{Type: "about:blank", Title: "Not Found", Status: 404,
		Detail: "task 7 not found", Message: "task 7 not found"}, p)
	assert.Equal(t, "exporttask: 404 Not Found: task 7 not found", p.Error())
	var err error = p
	var got *exporttask.Problem
	require.True(t, errors.As(fmt.Errorf("calling the API: %w", err), &got))
	assert.Equal(t, p, got)

	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"about:blank","title":"Not Found","status":404,"detail":"task 7 not found","message":"task 7 not found"}`, string(b))
	assert.Equal(t, "Insufficient Storage", statusText(509))
	assert.Equal(t, "Unauthorized", statusText(401))
}

func TestProblemFor(t *testing.T) {
	quota, remaining := int64(1000), int64(10)
	tests := []struct {
		name string
		err  error
		want *exporttask.Problem
	}{
		{"validation", fmt.Errorf("creating: %w", &exporttask.ValidationError{Problems: []exporttask.FieldError{
			fieldError("/domain", "is required"), fieldError("/webhook", "at least one webhook is required")}}),
			&exporttask.Problem{Type: exporttask.ProblemTypeValidation, Title: "Invalid request", Status: 400,
				Detail:  "invalid request (2 problems): /domain: is required; /webhook: at least one webhook is required",
				Message: "invalid request (2 problems): /domain: is required; /webhook: at least one webhook is required",
				Errors:  []exporttask.FieldError{fieldError("/domain", "is required"), fieldError("/webhook", "at least one webhook is required")}}},
		{"final task", fmt.Errorf("aborting: %w: %w", taskstore.ErrConflict,
			&exporttask.TransitionError{From: exporttask.StatusCompleted, To: exporttask.StatusAborted}),
			&exporttask.Problem{Type: exporttask.ProblemTypeInvalidTransition, Title: "Invalid status transition", Status: 409,
				Detail:  "the task is already COMPLETED, a final status; it cannot become ABORTED",
				Message: "the task is already COMPLETED, a final status; it cannot become ABORTED"}},
		{"other transition", &exporttask.TransitionError{From: exporttask.StatusPending, To: exporttask.StatusCompleted},
			&exporttask.Problem{Type: exporttask.ProblemTypeInvalidTransition, Title: "Invalid status transition", Status: 409,
				Detail:  "the task is PENDING and cannot move to COMPLETED",
				Message: "the task is PENDING and cannot move to COMPLETED"}},
		{"quota", fmt.Errorf("creating: %w", &taskstore.QuotaError{Quota: 1000, Remaining: 10, Requested: 500}),
			&exporttask.Problem{Type: exporttask.ProblemTypeQuotaExceeded, Title: "Storage quota exceeded", Status: 509,
				Detail:     "the export storage quota is exhausted: the task needs 500 bytes (its estimated size and its stored request) and 10 of the 1000-byte quota remain",
				Message:    "the export storage quota is exhausted: the task needs 500 bytes (its estimated size and its stored request) and 10 of the 1000-byte quota remain",
				QuotaBytes: &quota, RemainingBytes: &remaining}},
		{"full disk", fmt.Errorf("storing: %w", exporttask.ErrStorageFull),
			&exporttask.Problem{Type: "about:blank", Title: "Insufficient Storage", Status: 507,
				Detail:  "The server's storage is full; nothing was stored. Try again later.",
				Message: "The server's storage is full; nothing was stored. Try again later."}},
		{"no such record", fmt.Errorf("estimating: %w", catalog.ErrNotFound),
			&exporttask.Problem{Type: "about:blank", Title: "Not Found", Status: 404,
				Detail:  "No catalog record with this catalogRecordID.",
				Message: "No catalog record with this catalogRecordID.",
				Errors:  []exporttask.FieldError{fieldError("/catalogRecordID", "no catalog record with this id")}}},
		{"no such task", fmt.Errorf("reading: %w", taskstore.ErrNotFound),
			&exporttask.Problem{Type: "about:blank", Title: "Not Found", Status: 404,
				Detail: "No export task with this id.", Message: "No export task with this id."}},
		{"source cannot be exported", fmt.Errorf("estimating: %w",
			export.Permanent("the source of catalog record r1 changed; run catalog add -id r1 -replace /srv/data/dem.tif", errors.New("inner"))),
			&exporttask.Problem{Type: exporttask.ProblemTypeValidation, Title: "Invalid request", Status: 400,
				Detail:  "invalid request: /catalogRecordID: the source of catalog record r1 changed; run catalog add -id r1 -replace dem.tif",
				Message: "invalid request: /catalogRecordID: the source of catalog record r1 changed; run catalog add -id r1 -replace dem.tif",
				Errors:  []exporttask.FieldError{fieldError("/catalogRecordID", "the source of catalog record r1 changed; run catalog add -id r1 -replace dem.tif")}}},
		{"conflict without a transition", fmt.Errorf("redelivering: %w", taskstore.ErrConflict),
			&exporttask.Problem{Type: exporttask.ProblemTypeInvalidTransition, Title: "Invalid status transition", Status: 409,
				Detail: "The task's status does not allow this.", Message: "The task's status does not allow this."}},
		{"anything else is a server error", errors.New("disk on fire"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := problemFor(tt.err)
			assert.Equal(t, tt.want != nil, ok)
			assert.Equal(t, tt.want, p)
		})
	}
}

func TestQuotaProblemJSON(t *testing.T) {
	p, ok := problemFor(&taskstore.QuotaError{Quota: 1 << 30, Remaining: 0, Requested: 5})
	require.True(t, ok)
	b, err := json.Marshal(p)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.EqualValues(t, 0, m["remainingBytes"], "a zero remainder is still written")
	assert.EqualValues(t, 1<<30, m["quotaBytes"])
	assert.NotContains(t, m, "errors")
}

// fieldError is short for a FieldError in test tables.
func fieldError(ptr, msg string) exporttask.FieldError {
	return exporttask.FieldError{Pointer: ptr, Message: msg}
}

// TestIdempotencyKeyReusedProblem: a key reused with another body is a 422
// naming the key and the task.
func TestIdempotencyKeyReusedProblem(t *testing.T) {
	p, ok := problemFor(fmt.Errorf("creating: %w", &taskstore.IdempotencyKeyReusedError{Key: "k-1", TaskID: 7}))
	require.True(t, ok)
	assert.Equal(t, 422, p.Status)
	assert.Equal(t, exporttask.ProblemTypeIdempotencyKeyReused, p.Type)
	assert.Contains(t, p.Detail, `"k-1"`)
	assert.Contains(t, p.Detail, "task 7")
	assert.Contains(t, p.Detail, "another request body")

	// The same body over data the record no longer holds: the detail says
	// the data changed, not the body.
	p, ok = problemFor(&taskstore.IdempotencyKeyReusedError{Key: "k-1", TaskID: 7, DataChanged: true})
	require.True(t, ok)
	assert.Equal(t, 422, p.Status)
	assert.Equal(t, exporttask.ProblemTypeIdempotencyKeyReused, p.Type)
	assert.Contains(t, p.Detail, "with this request body")
	assert.Contains(t, p.Detail, "the catalog record's data has changed since")
	assert.Contains(t, p.Detail, "send a new key")
	assert.NotContains(t, p.Detail, "another request body")

	long := strings.Repeat("k", 255) // the longest key the server accepts
	p, ok = problemFor(&taskstore.IdempotencyKeyReusedError{Key: long, TaskID: 7})
	require.True(t, ok)
	assert.Contains(t, p.Detail, `"`+long[:64]+`"…`, "a long key is cut in the detail")
	assert.NotContains(t, p.Detail, long[:65])
}
