package taskstore

import (
	"strconv"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
)

// View returns the delivery as its customer sees it: the state as a
// [DeliveryStatus] and the recorded error text reduced to a status code
// or a [exporttask.DeliveryErrorClass].
func (d DeliveryRecord) View() exporttask.WebhookDelivery {
	v := exporttask.WebhookDelivery{
		ID: d.ID, Event: d.Event, URL: d.URL, Attempts: d.Attempts,
		CreatedAt: d.CreatedAt, NextAttemptAt: d.NextAttemptAt, LastAttemptAt: d.LastAttemptAt,
	}
	switch d.State {
	case DeliveryDelivered:
		v.Status = exporttask.DeliveryStatusDelivered
		return v // an earlier failure is no longer the outcome
	case DeliveryGivenUp:
		v.Status = exporttask.DeliveryStatusFailed
	default:
		v.Status = exporttask.DeliveryStatusPending
	}
	v.LastStatusCode, v.LastError = ClassifyDeliveryError(d.LastError)
	return v
}

// ClassifyDeliveryError reduces the error text a deliverer records for a
// failed attempt (see [DeliveryResult]) to what a customer may see: the
// receiver's HTTP status when the text starts with "HTTP " and three
// digits, else a class read from the text. Empty text gives (0, "").
func ClassifyDeliveryError(text string) (statusCode int, class exporttask.DeliveryErrorClass) {
	if text == "" {
		return 0, ""
	}
	if rest, ok := strings.CutPrefix(text, "HTTP "); ok && len(rest) >= 3 {
		if code, err := strconv.Atoi(rest[:3]); err == nil && code >= 100 && code <= 999 {
			return code, exporttask.DeliveryErrorHTTPStatus
		}
	}
	lower := strings.ToLower(text)
	switch {
	case strings.Contains(lower, "webhook address not allowed"), strings.Contains(lower, "invalid webhook url"):
		return 0, exporttask.DeliveryErrorAddressNotAllowed
	case strings.Contains(lower, "deadline exceeded"), strings.Contains(lower, "timeout"):
		return 0, exporttask.DeliveryErrorTimeout
	case strings.Contains(lower, "no such host"), strings.Contains(lower, "server misbehaving"):
		return 0, exporttask.DeliveryErrorDNS
	case strings.Contains(lower, "tls:"), strings.Contains(lower, "x509:"), strings.Contains(lower, "certificate"):
		return 0, exporttask.DeliveryErrorTLS
	}
	return 0, exporttask.DeliveryErrorConnection
}
