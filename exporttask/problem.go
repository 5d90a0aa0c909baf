package exporttask

import (
	"fmt"
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

// Error returns the status, the title and the detail, with the title left
// out when the detail starts with it ("exporttask: 400 invalid request:
// /domain: ...", not "400 Invalid request: invalid request: ...").
func (p *Problem) Error() string {
	if p.Title == "" || len(p.Detail) >= len(p.Title) && strings.EqualFold(p.Detail[:len(p.Title)], p.Title) {
		return fmt.Sprintf("exporttask: %d %s", p.Status, p.Detail)
	}
	return fmt.Sprintf("exporttask: %d %s: %s", p.Status, p.Title, p.Detail)
}

// Problem returns the 400 problem body that lists e's problems in Errors
// and sums up the first few in Detail.
func (e *ValidationError) Problem() *Problem {
	// Clients of the reference service read only message: name the
	// first problems there too.
	detail := strings.TrimPrefix(e.Error(), "exporttask: ")
	return &Problem{Type: ProblemTypeValidation, Title: "Invalid request", Status: 400,
		Detail: detail, Message: detail, Errors: e.Problems}
}
