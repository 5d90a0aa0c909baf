package exporttask

// DeliveryStatus is where a webhook delivery is, as the API shows it.
type DeliveryStatus string

// The statuses of a delivery in the API.
const (
	// DeliveryStatusPending: to be attempted, maybe again, at
	// nextAttemptAt.
	DeliveryStatusPending DeliveryStatus = "PENDING"
	// DeliveryStatusDelivered: the receiver answered 2xx.
	DeliveryStatusDelivered DeliveryStatus = "DELIVERED"
	// DeliveryStatusFailed: given up; it is never attempted again (ask
	// for a redelivery instead).
	DeliveryStatusFailed DeliveryStatus = "FAILED"
)

// DeliveryErrorClass says why the last attempt at a delivery failed.
type DeliveryErrorClass string

// The classes of failed attempts.
const (
	// DeliveryErrorHTTPStatus: the receiver answered with a status other
	// than 2xx (lastStatusCode has it; a 3xx is not followed).
	DeliveryErrorHTTPStatus DeliveryErrorClass = "HTTP_STATUS"
	// DeliveryErrorTimeout: no answer within the attempt's time limit.
	DeliveryErrorTimeout DeliveryErrorClass = "TIMEOUT"
	// DeliveryErrorDNS: the receiver's host name did not resolve.
	DeliveryErrorDNS DeliveryErrorClass = "DNS"
	// DeliveryErrorTLS: the TLS handshake failed (certificate, say).
	DeliveryErrorTLS DeliveryErrorClass = "TLS"
	// DeliveryErrorAddressNotAllowed: the URL or the address it resolved
	// to is refused by the server's address policy (loopback, private
	// and other special-purpose networks); never retried.
	DeliveryErrorAddressNotAllowed DeliveryErrorClass = "ADDRESS_NOT_ALLOWED"
	// DeliveryErrorConnection: any other failure to connect or to
	// exchange the request (refused, reset, closed early).
	DeliveryErrorConnection DeliveryErrorClass = "CONNECTION"
)

// WebhookDelivery is one webhook delivery of a task, as GET
// /export-tasks/{id}/deliveries shows it, without payload or internal errors.
type WebhookDelivery struct {
	ID       int64          `json:"id"`
	Event    Event          `json:"event"`
	URL      string         `json:"url"`
	Status   DeliveryStatus `json:"status"`
	Attempts int            `json:"attempts"`
	// CreatedAt is when the event happened, or when a redelivery was
	// asked for (its retry horizon starts then).
	CreatedAt      Time               `json:"createdAt"`
	LastAttemptAt  Time               `json:"lastAttemptAt,omitzero"`   // when the last attempt ended
	LastStatusCode int                `json:"lastStatusCode,omitempty"` // of the last failed attempt, if answered
	LastError      DeliveryErrorClass `json:"lastError,omitempty"`      // why the last attempt failed, if it did
	NextAttemptAt  Time               `json:"nextAttemptAt,omitzero"`   // when a pending delivery is tried next
}
