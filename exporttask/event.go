package exporttask

import (
	"encoding/json"
	"fmt"
	"time"
)

// EventPayload is the JSON body of a webhook delivery.
type EventPayload struct {
	Event     Event `json:"event"`
	Timestamp Time  `json:"timestamp"`
	Data      Task  `json:"data"`
}

// MarshalEvent encodes the webhook body for event ev of task t, happening at
// time at.
func MarshalEvent(ev Event, t Task, at time.Time) ([]byte, error) {
	b, err := json.Marshal(EventPayload{Event: ev, Timestamp: NewTime(at), Data: t})
	if err != nil {
		return nil, fmt.Errorf("exporttask: encoding %s event of task %d: %w", ev, t.ID, err)
	}
	return b, nil
}

// Subscribers returns the URLs of t's webhooks that subscribe to ev, each
// once, in the order of t.Webhook.
func Subscribers(t Task, ev Event) []string {
	var urls []string
	seen := make(map[string]bool)
	for _, w := range t.Webhook {
		if seen[w.URL] {
			continue
		}
		for _, e := range w.Events {
			if e == ev {
				urls = append(urls, w.URL)
				seen[w.URL] = true
				break
			}
		}
	}
	return urls
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
