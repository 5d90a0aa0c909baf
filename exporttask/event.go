package exporttask

import (
	"strconv"
)

// EventPayload is the JSON body of a webhook delivery.
type EventPayload struct {
	Event     Event     `json:"event"`
	Timestamp Time      `json:"timestamp"`
	Data      EventTask `json:"data"`
}

// EventTask is the task as a webhook delivery shows it: without ROI,
// keywords, parameters or description, and with only the receiver's own
// subscription. GET links' "self" for the whole task.
type EventTask struct {
	ID          int64      `json:"id"`
	Status      Status     `json:"status"`
	Progress    int        `json:"progress"`
	ErrorReason string     `json:"errorReason,omitempty"`
	Artifacts   []Artifact `json:"artifacts"`
	Webhook     Webhook    `json:"webhook"` // the receiver's subscription
	Links       []Link     `json:"links"`   // "self": the task's path, relative to the API's base URL
}

// Link is a hyperlink in a webhook payload.
type Link struct {
	Rel  string `json:"rel"`
	Href string `json:"href"`
}

// NewEventTask returns the view of t that a delivery to subscription sub
// carries.
func NewEventTask(t Task, sub Webhook) EventTask {
	arts := t.Artifacts
	if arts == nil {
		arts = []Artifact{}
	}
	return EventTask{
		ID: t.ID, Status: t.Status, Progress: t.Progress, ErrorReason: t.ErrorReason, Artifacts: arts,
		Webhook: sub,
		Links:   []Link{{Rel: "self", Href: "/export-tasks/" + strconv.FormatInt(t.ID, 10)}},
	}
}
