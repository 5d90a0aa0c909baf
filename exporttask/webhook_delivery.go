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

// DeliveryErrorClass says, without the server's internal error text, why
// the last attempt at a delivery failed.
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

// WebhookDelivery is one webhook delivery of a task as its customer sees
// it (GET /export-tasks/{id}/deliveries): where it goes and how it went.
// It carries neither the payload nor the server's internal error text.
type WebhookDelivery struct {
	ID    int64  `json:"id"`
	Event Event  `json:"event"`
	URL   string `json:"url"`
	// Status is PENDING, DELIVERED or FAILED (given up).
	Status   DeliveryStatus `json:"status"`
	Attempts int            `json:"attempts"`
	// CreatedAt is when the event happened, or for a redelivery when it
	// was asked for (its retry horizon starts then).
	CreatedAt Time `json:"createdAt"`
	// LastAttemptAt is when the last attempt ended (for a delivered or
	// failed delivery, when it ended); absent before the first attempt.
	LastAttemptAt Time `json:"lastAttemptAt,omitzero"`
	// LastStatusCode is the HTTP status of the last failed attempt, when
	// the receiver answered.
	LastStatusCode int `json:"lastStatusCode,omitempty"`
	// LastError classifies the last failed attempt; absent when no
	// attempt failed last.
	LastError DeliveryErrorClass `json:"lastError,omitempty"`
	// NextAttemptAt is when a pending delivery is tried next.
	NextAttemptAt Time `json:"nextAttemptAt,omitzero"`
}
