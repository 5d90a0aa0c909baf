package exporttask

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// EventPayload is the JSON body of a webhook delivery.
type EventPayload struct {
	Event     Event     `json:"event"`
	Timestamp Time      `json:"timestamp"`
	Data      EventTask `json:"data"`
}

// EventTask is the task as a webhook delivery shows it: a small view whose
// size does not grow with the request (no ROI, keywords, parameters or
// description), carrying only the receiver's own subscription. Read the
// whole task with GET on links' "self".
type EventTask struct {
	ID          int64      `json:"id"`
	Status      Status     `json:"status"`
	Progress    int        `json:"progress"`
	ErrorReason string     `json:"errorReason,omitempty"`
	Artifacts   []Artifact `json:"artifacts"`
	// Webhook is the receiver's subscription (its URL and events).
	Webhook Webhook `json:"webhook"`
	// Links holds "self": the task's path, relative to the API's base URL.
	Links []Link `json:"links"`
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

// MarshalEvent encodes the webhook body for event ev of task t, happening at
// time at, to the receiver subscribed with sub.
func MarshalEvent(ev Event, t Task, sub Webhook, at time.Time) ([]byte, error) {
	b, err := json.Marshal(EventPayload{Event: ev, Timestamp: NewTime(at), Data: NewEventTask(t, sub)})
	if err != nil {
		return nil, fmt.Errorf("exporttask: encoding %s event of task %d: %w", ev, t.ID, err)
	}
	return b, nil
}

// SubscriptionsTo returns t's webhooks that subscribe to ev, one per URL
// (the first entry for a URL that lists ev), in the order of t.Webhook.
func SubscriptionsTo(t Task, ev Event) []Webhook {
	var subs []Webhook
	seen := make(map[string]bool)
	for _, w := range t.Webhook {
		if !seen[w.URL] && slices.Contains(w.Events, ev) {
			subs = append(subs, w)
			seen[w.URL] = true
		}
	}
	return subs
}

// MergeWebhooks adds add's subscriptions to have: for every URL, the union
// of its events (in first-seen order). changed reports whether the result
// differs from have.
func MergeWebhooks(have, add []Webhook) (merged []Webhook, changed bool) {
	idx := make(map[string]int, len(have))
	for _, w := range have {
		if i, ok := idx[w.URL]; ok {
			merged[i].Events = unionEvents(merged[i].Events, w.Events)
			continue
		}
		idx[w.URL] = len(merged)
		merged = append(merged, Webhook{URL: w.URL, Events: append([]Event(nil), w.Events...)})
	}
	for _, w := range add {
		i, ok := idx[w.URL]
		if !ok {
			idx[w.URL] = len(merged)
			merged = append(merged, Webhook{URL: w.URL, Events: append([]Event(nil), w.Events...)})
			changed = true
			continue
		}
		n := len(merged[i].Events)
		merged[i].Events = unionEvents(merged[i].Events, w.Events)
		changed = changed || len(merged[i].Events) != n
	}
	return merged, changed
}

func unionEvents(a, b []Event) []Event {
	for _, e := range b {
		found := false
		for _, x := range a {
			if x == e {
				found = true
				break
			}
		}
		if !found {
			a = append(a, e)
		}
	}
	return a
}
