package taskstore

import "github.com/openapi-viewer/viewer/exporttask"

// View returns the delivery as its customer sees it: the state as an
// [exporttask.DeliveryStatus] (GIVEN_UP is FAILED), and the status code and
// class of the last failed attempt unless the delivery was delivered since.
// It is the one place where the store's delivery becomes the API's.
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
	v.LastStatusCode, v.LastError = d.LastStatusCode, d.LastErrorClass
	return v
}
