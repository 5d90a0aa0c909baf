package exporttask

import (
	"fmt"
	"strings"
)

// ProblemContentType is the media type of every error body (RFC 9457).
const ProblemContentType = "application/problem+json"

// StatusQuotaExceeded (509, as the reference service documents) answers a
// create when the customer's storage quota is exhausted.
const StatusQuotaExceeded = 509

// The problem types. Plain HTTP errors use ProblemTypeBlank; the domain's
// own errors have their own type.
const (
	ProblemTypeBlank             = "about:blank"
	ProblemTypeValidation        = "https://openapi-viewer.dev/problems/validation-error"   // 400
	ProblemTypeInvalidTransition = "https://openapi-viewer.dev/problems/invalid-transition" // 409
	ProblemTypeQuotaExceeded     = "https://openapi-viewer.dev/problems/quota-exceeded"     // 509
	// 409: a redelivery asked for while one of the same event to the same URL is pending
	ProblemTypeDeliveryPending = "https://openapi-viewer.dev/problems/delivery-pending"
	// 422: a create whose Idempotency-Key the customer already used with another body
	ProblemTypeIdempotencyKeyReused = "https://openapi-viewer.dev/problems/idempotency-key-reused"
)

// Problem is the body of every error response: an RFC 9457 problem detail,
// plus Message (Detail again) for clients of the reference service.
type Problem struct {
	Type           string       `json:"type"`   // ProblemTypeBlank or a ProblemType constant
	Title          string       `json:"title"`  // fixed summary of Type (the status text for blank)
	Status         int          `json:"status"` // HTTP status code
	Detail         string       `json:"detail"` // this occurrence
	Message        string       `json:"message"`
	Instance       string       `json:"instance,omitempty"`       // the request's path
	RequestID      string       `json:"requestId,omitempty"`      // the request in the server's log
	Errors         []FieldError `json:"errors,omitempty"`         // every problem of a 400 body
	QuotaBytes     *int64       `json:"quotaBytes,omitempty"`     // 509 only
	RemainingBytes *int64       `json:"remainingBytes,omitempty"` // 509 only
}

// Error returns the status, the title and the detail, leaving the title
// out when the detail starts with it.
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
