package exporttask

import "fmt"

// ProblemTypeDeliveryPending is the type of the 409 problem that answers
// a redelivery asked for while a delivery of the same event to the same
// URL is pending (package taskstore's ErrDeliveryPending).
const ProblemTypeDeliveryPending = "https://openapi-viewer.dev/problems/delivery-pending"

// DeliveryPendingProblem returns the 409 problem for a redelivery of
// delivery id refused because another is pending.
func DeliveryPendingProblem(id int64) *Problem {
	detail := fmt.Sprintf("a delivery of the event of delivery %d to its URL is still pending; "+
		"ask again once it is delivered or has failed", id)
	return &Problem{Type: ProblemTypeDeliveryPending, Title: "Delivery pending",
		Status: 409, Detail: detail, Message: detail}
}
