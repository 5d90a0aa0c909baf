package taskstore

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// DeliveryClaim is the input of [Outbox.ClaimDeliveries].
type DeliveryClaim struct {
	Now   time.Time
	Limit int           // at most this many deliveries
	Lease time.Duration // reserved until Now+Lease
	// SkipHosts lists receiver hosts (see [DeliveryHost]) whose
	// deliveries are not claimed: the caller has enough attempts in flight
	// to them.
	SkipHosts []string
	// PerHost bounds how many deliveries to one host are claimed; 0 means
	// no bound.
	PerHost int
}

// DeliveryHost is the receiver host of a webhook URL, the unit of
// per-receiver fairness: its lower-case host and port as written in the
// URL ("hooks.example.com", "127.0.0.1:8080"), or "" when rawURL does not
// parse.
func DeliveryHost(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// DeliveryState is where a webhook delivery is: pending (to be attempted,
// maybe again), delivered, or given up.
type DeliveryState string

// The states of a delivery.
const (
	DeliveryPending   DeliveryState = "PENDING"
	DeliveryDelivered DeliveryState = "DELIVERED"
	DeliveryGivenUp   DeliveryState = "GIVEN_UP"
)

// DeliveryRecord is a webhook delivery as a store keeps it: where it goes
// and how it went, not its payload. [DeliveryRecord.View] is what its
// task's customer sees of it (GET /export-tasks/{id}/deliveries).
type DeliveryRecord struct {
	ID       int64
	TaskID   int64
	URL      string
	Event    exporttask.Event
	State    DeliveryState
	Attempts int
	// LastStatusCode is the receiver's HTTP status at the last failed
	// attempt; 0 when it did not answer or no attempt failed.
	LastStatusCode int
	// LastErrorClass says why the last failed attempt failed; empty when
	// no attempt failed.
	LastErrorClass exporttask.DeliveryErrorClass
	// LastError says, in the deliverer's words, what went wrong at the
	// last failed attempt: for the record, never shown to the customer.
	LastError string
	// CreatedAt is when the event happened.
	CreatedAt exporttask.Time
	// NextAttemptAt is when a pending delivery is tried next.
	NextAttemptAt exporttask.Time
	// DoneAt is when a delivery was delivered or given up.
	DoneAt exporttask.Time
	// LastAttemptAt is when the last attempt ended; zero before the
	// first.
	LastAttemptAt exporttask.Time
}

// ErrDeliveryPending is returned by [Outbox.Redeliver] when a delivery of
// the same event to the same URL of that task is still pending: the
// receiver gets that one first, so another would only add load. It wraps
// [ErrConflict].
var ErrDeliveryPending = fmt.Errorf("%w: a delivery of this event to this URL is still pending", ErrConflict)
