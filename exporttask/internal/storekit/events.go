package storekit

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// MarshalEvent encodes the webhook body for event ev of task t, happening at
// time at, to the receiver subscribed with sub.
func MarshalEvent(ev exporttask.Event, t exporttask.Task, sub exporttask.Webhook, at time.Time) ([]byte, error) {
	b, err := json.Marshal(exporttask.EventPayload{Event: ev, Timestamp: exporttask.NewTime(at), Data: exporttask.NewEventTask(t, sub)})
	if err != nil {
		return nil, fmt.Errorf("storekit: encoding %s event of task %d: %w", ev, t.ID, err)
	}
	return b, nil
}

// SubscriptionsTo returns t's webhooks that subscribe to ev, one per URL
// (the first entry for a URL that lists ev), in the order of t.Webhook.
func SubscriptionsTo(t exporttask.Task, ev exporttask.Event) []exporttask.Webhook {
	var subs []exporttask.Webhook
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
func MergeWebhooks(have, add []exporttask.Webhook) (merged []exporttask.Webhook, changed bool) {
	idx := make(map[string]int, len(have))
	for _, w := range have {
		if i, ok := idx[w.URL]; ok {
			merged[i].Events = unionEvents(merged[i].Events, w.Events)
			continue
		}
		idx[w.URL] = len(merged)
		merged = append(merged, exporttask.Webhook{URL: w.URL, Events: append([]exporttask.Event(nil), w.Events...)})
	}
	for _, w := range add {
		i, ok := idx[w.URL]
		if !ok {
			idx[w.URL] = len(merged)
			merged = append(merged, exporttask.Webhook{URL: w.URL, Events: append([]exporttask.Event(nil), w.Events...)})
			changed = true
			continue
		}
		n := len(merged[i].Events)
		merged[i].Events = unionEvents(merged[i].Events, w.Events)
		changed = changed || len(merged[i].Events) != n
	}
	return merged, changed
}

func unionEvents(a, b []exporttask.Event) []exporttask.Event {
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
