package exporttask

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ProblemContentType is the media type of every error body (RFC 9457).
const ProblemContentType = "application/problem+json"

// StatusQuotaExceeded is the status the API answers a create with when the
// customer's export storage quota is exhausted. The reference service
// documents 509 ("Insufficient Storage") for this, and clients expect it;
// HTTP's standard code for insufficient storage is 507 (RFC 4918).
const StatusQuotaExceeded = 509

// The problem types. Plain HTTP errors (401, 403, 404, 405, 413, 415, 500,
// 503) use ProblemTypeBlank; the domain's own errors have their own type.
const (
	ProblemTypeBlank             = "about:blank"
	ProblemTypeValidation        = "https://openapi-viewer.dev/problems/validation-error"   // 400
	ProblemTypeInvalidTransition = "https://openapi-viewer.dev/problems/invalid-transition" // 409
	ProblemTypeQuotaExceeded     = "https://openapi-viewer.dev/problems/quota-exceeded"     // 509
)

// Problem is the body of every error response: an RFC 9457 problem
// detail, plus Message (the same text as Detail) for clients of the
// reference service, whose error body is {"message"}.
type Problem struct {
	// Type identifies the kind of problem: ProblemTypeBlank or one of the
	// domain's ProblemType constants.
	Type string `json:"type"`
	// Title is the short, fixed summary of Type; for ProblemTypeBlank, the
	// HTTP status text.
	Title string `json:"title"`
	// Status is the HTTP status code.
	Status int `json:"status"`
	// Detail explains this occurrence.
	Detail string `json:"detail"`
	// Message repeats Detail.
	Message string `json:"message"`
	// Instance is the path of the request, when known.
	Instance string `json:"instance,omitempty"`
	// RequestID identifies the request in the server's logs, when known.
	RequestID string `json:"requestId,omitempty"`
	// Errors lists every problem with a 400 request body.
	Errors []FieldError `json:"errors,omitempty"`
	// QuotaBytes is the customer's storage quota in bytes (509 only).
	QuotaBytes *int64 `json:"quotaBytes,omitempty"`
	// RemainingBytes is what is left of the quota in bytes (509 only).
	RemainingBytes *int64 `json:"remainingBytes,omitempty"`
}

// Error returns the status and the detail.
func (p *Problem) Error() string {
	return fmt.Sprintf("exporttask: %d %s: %s", p.Status, p.Title, p.Detail)
}

// NewProblem returns a plain HTTP problem (type about:blank) with the status
// text as title.
func NewProblem(status int, detail string) *Problem {
	return &Problem{Type: ProblemTypeBlank, Title: StatusText(status), Status: status,
		Detail: detail, Message: detail}
}

// StatusText is http.StatusText, plus the text of 509, which net/http does
// not name.
func StatusText(status int) string {
	if status == StatusQuotaExceeded {
		return "Insufficient Storage"
	}
	return http.StatusText(status)
}

// ProblemFor returns the problem body for an error the domain defines: a
// *ValidationError (400), a *TransitionError (409), an
// *IdempotencyKeyReusedError (422) or a *QuotaError (509), found with
// errors.As. ok is false for any other error, which the caller
// maps itself (404 for ErrNotFound, 500 otherwise).
func ProblemFor(err error) (p *Problem, ok bool) {
	var ve *ValidationError
	var te *TransitionError
	var qe *QuotaError
	var ke *IdempotencyKeyReusedError
	switch {
	case errors.As(err, &ke):
		return IdempotencyKeyReusedProblem(ke.Key, ke.TaskID), true
	case errors.As(err, &ve):
		return ve.Problem(), true
	case errors.As(err, &te):
		detail := fmt.Sprintf("the task is %s and cannot move to %s", te.From, te.To)
		if te.From.Final() {
			detail = fmt.Sprintf("the task is already %s, a final status; it cannot become %s", te.From, te.To)
		}
		return &Problem{Type: ProblemTypeInvalidTransition, Title: "Invalid status transition",
			Status: http.StatusConflict, Detail: detail, Message: detail}, true
	case errors.As(err, &qe):
		detail := fmt.Sprintf("the export storage quota is exhausted: the task needs %d bytes (its estimated size and its stored request) and %d of the %d-byte quota remain",
			qe.Requested, qe.Remaining, qe.Quota)
		quota, remaining := qe.Quota, qe.Remaining
		return &Problem{Type: ProblemTypeQuotaExceeded, Title: "Storage quota exceeded",
			Status: StatusQuotaExceeded, Detail: detail, Message: detail,
			QuotaBytes: &quota, RemainingBytes: &remaining}, true
	}
	return nil, false
}

// Problem returns the 400 problem body that lists e's problems in Errors
// and sums up the first few in Detail.
func (e *ValidationError) Problem() *Problem {
	// Clients of the reference service read only message: name the
	// first problems there too.
	detail := strings.TrimPrefix(e.Error(), "exporttask: ")
	return &Problem{Type: ProblemTypeValidation, Title: "Invalid request", Status: http.StatusBadRequest,
		Detail: detail, Message: detail, Errors: e.Problems}
}
