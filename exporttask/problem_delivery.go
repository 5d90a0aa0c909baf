package exporttask

// ProblemTypeDeliveryPending is the type of the 409 problem that answers
// a redelivery asked for while a delivery of the same event to the same
// URL is pending (package taskstore's ErrDeliveryPending).
const ProblemTypeDeliveryPending = "https://openapi-viewer.dev/problems/delivery-pending"
