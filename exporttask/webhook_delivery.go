package exporttask

// DeliveryStatus is where a webhook delivery is, as the API shows it.
type DeliveryStatus string

// The statuses of a delivery in the API.
const (
	DeliveryStatusPending   DeliveryStatus = "PENDING"   // to be attempted (again) at nextAttemptAt
	DeliveryStatusDelivered DeliveryStatus = "DELIVERED" // the receiver answered 2xx
	DeliveryStatusFailed    DeliveryStatus = "FAILED"    // given up: ask for a redelivery
)

// DeliveryErrorClass says why the last attempt at a delivery failed.
type DeliveryErrorClass string

// The classes of failed attempts.
const (
	DeliveryErrorHTTPStatus DeliveryErrorClass = "HTTP_STATUS" // not 2xx (lastStatusCode; 3xx not followed)
	DeliveryErrorTimeout    DeliveryErrorClass = "TIMEOUT"     // no answer in time
	DeliveryErrorDNS        DeliveryErrorClass = "DNS"         // the host name did not resolve
	DeliveryErrorTLS        DeliveryErrorClass = "TLS"         // the TLS handshake failed
	// the server's address policy refuses the URL or its address (loopback, private networks...); never retried
	DeliveryErrorAddressNotAllowed DeliveryErrorClass = "ADDRESS_NOT_ALLOWED"
	DeliveryErrorConnection        DeliveryErrorClass = "CONNECTION" // any other failure to connect or exchange
)

// WebhookDelivery is one webhook delivery of a task, as GET
// /export-tasks/{id}/deliveries shows it, without payload or internal errors.
type WebhookDelivery struct {
	ID             int64              `json:"id"`
	Event          Event              `json:"event"`
	URL            string             `json:"url"`
	Status         DeliveryStatus     `json:"status"`
	Attempts       int                `json:"attempts"`
	CreatedAt      Time               `json:"createdAt"`                // the event, or the redelivery request: its retry horizon starts then
	LastAttemptAt  Time               `json:"lastAttemptAt,omitzero"`   // when the last attempt ended
	LastStatusCode int                `json:"lastStatusCode,omitempty"` // of the last failed attempt, if answered
	LastError      DeliveryErrorClass `json:"lastError,omitempty"`      // why the last attempt failed, if it did
	NextAttemptAt  Time               `json:"nextAttemptAt,omitzero"`   // when a pending delivery is tried next
}
