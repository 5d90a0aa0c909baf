package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
	"github.com/openapi-viewer/viewer/exporttask/internal/reason"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// newProblem returns a plain HTTP problem (type about:blank) with the status
// text as title.
func newProblem(status int, detail string) *exporttask.Problem {
	return &exporttask.Problem{Type: exporttask.ProblemTypeBlank, Title: statusText(status), Status: status,
		Detail: detail, Message: detail}
}

// statusText is http.StatusText, plus the text of 509, which net/http does
// not name.
func statusText(status int) string {
	if status == exporttask.StatusQuotaExceeded {
		return "Insufficient Storage"
	}
	return http.StatusText(status)
}

// problemFor is the one table from the kinds of error a handler meets to
// the problem it answers, found with errors.Is and errors.As in this order:
//
//	exporttask.ErrStorageFull              507 (with Retry-After; logged)
//	catalog.ErrNotFound                    404 at /catalogRecordID
//	taskstore.ErrNotFound                  404
//	*taskstore.IdempotencyKeyReusedError   422
//	*exporttask.ValidationError            400 with its field errors
//	*export.PermanentError                 400 at /catalogRecordID (a record
//	                                       whose source cannot be exported)
//	*exporttask.TransitionError            409 naming both statuses
//	taskstore.ErrConflict                  409
//	*taskstore.QuotaError                  509
//
// ok is false for any other error: a server error (500, logged; 499 when
// the client went away), which [Server.answerError] writes.
func problemFor(err error) (p *exporttask.Problem, ok bool) {
	var ve *exporttask.ValidationError
	var pe *export.PermanentError
	var te *exporttask.TransitionError
	var qe *taskstore.QuotaError
	var ke *taskstore.IdempotencyKeyReusedError
	switch {
	case errors.Is(err, exporttask.ErrStorageFull):
		return newProblem(http.StatusInsufficientStorage,
			"The server's storage is full; nothing was stored. Try again later."), true
	case errors.Is(err, catalog.ErrNotFound):
		p := newProblem(http.StatusNotFound, "No catalog record with this catalogRecordID.")
		p.Errors = []exporttask.FieldError{{Pointer: "/catalogRecordID", Message: "no catalog record with this id"}}
		return p, true
	case errors.Is(err, taskstore.ErrNotFound):
		return newProblem(http.StatusNotFound, "No export task with this id."), true
	case errors.As(err, &ke):
		return idempotencyKeyReusedProblem(ke), true
	case errors.As(err, &ve):
		return ve.Problem(), true
	case errors.As(err, &pe):
		return exporttask.NewValidationError(exporttask.FieldError{
			Pointer: "/catalogRecordID", Message: reason.Clean(pe.Reason)}).Problem(), true
	case errors.As(err, &te):
		detail := fmt.Sprintf("the task is %s and cannot move to %s", te.From, te.To)
		if te.From.Final() {
			detail = fmt.Sprintf("the task is already %s, a final status; it cannot become %s", te.From, te.To)
		}
		return transitionProblem(detail), true
	case errors.Is(err, taskstore.ErrConflict):
		return transitionProblem("The task's status does not allow this."), true
	case errors.As(err, &qe):
		detail := fmt.Sprintf("the export storage quota is exhausted: the task needs %d bytes (its estimated size and its stored request) and %d of the %d-byte quota remain",
			qe.Requested, qe.Remaining, qe.Quota)
		quota, remaining := qe.Quota, qe.Remaining
		return &exporttask.Problem{Type: exporttask.ProblemTypeQuotaExceeded, Title: "Storage quota exceeded",
			Status: exporttask.StatusQuotaExceeded, Detail: detail, Message: detail,
			QuotaBytes: &quota, RemainingBytes: &remaining}, true
	}
	return nil, false
}

// transitionProblem returns the 409 problem of a status change the task's
// status does not allow.
func transitionProblem(detail string) *exporttask.Problem {
	return &exporttask.Problem{Type: exporttask.ProblemTypeInvalidTransition, Title: "Invalid status transition",
		Status: http.StatusConflict, Detail: detail, Message: detail}
}

// idempotencyKeyReusedProblem returns the 422 problem for a key that
// named a task made from another request body, or from the same body over
// data the catalog record no longer holds (ke.DataChanged).
func idempotencyKeyReusedProblem(ke *taskstore.IdempotencyKeyReusedError) *exporttask.Problem {
	detail := fmt.Sprintf("the Idempotency-Key %s was used for task %d with another request body; "+
		"send a new key for a new request", quoted.Short(ke.Key), ke.TaskID)
	if ke.DataChanged {
		detail = fmt.Sprintf("the Idempotency-Key %s was used for task %d with this request body, "+
			"but the catalog record's data has changed since (it was registered again), so that task "+
			"is not an export of the data it holds now; send a new key to export it", quoted.Short(ke.Key), ke.TaskID)
	}
	return &exporttask.Problem{Type: exporttask.ProblemTypeIdempotencyKeyReused, Title: "Idempotency-Key reused",
		Status: 422, Detail: detail, Message: detail}
}

// deliveryPendingProblem returns the 409 problem for a redelivery of
// delivery id refused because another is pending.
func deliveryPendingProblem(id int64) *exporttask.Problem {
	detail := fmt.Sprintf("a delivery of the event of delivery %d to its URL is still pending; "+
		"ask again once it is delivered or has failed", id)
	return &exporttask.Problem{Type: exporttask.ProblemTypeDeliveryPending, Title: "Delivery pending",
		Status: 409, Detail: detail, Message: detail}
}
