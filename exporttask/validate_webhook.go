package exporttask

import (
	"errors"
	"net/url"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/internal/quoted"
)

// validateWebhooks checks the webhook array: 1 to MaxWebhooks entries, each
// with a valid URL and events.
func validateWebhooks(p *problems, ptr string, hooks []Webhook) {
	switch n := len(hooks); {
	case n == 0:
		p.add(ptr, "at least one webhook is required")
	case n > MaxWebhooks:
		p.add(ptr, "has %d webhooks; at most %d are allowed", n, MaxWebhooks)
	}
	for i, w := range hooks {
		at := index(ptr, i)
		validateWebhookURL(p, at+"/url", w.URL)
		validateEvents(p, at+"/events", w.Events)
	}
}

// validateWebhookURL checks that raw is an absolute http or https URL with a
// host, at most MaxURLLength bytes long. Whether the host may be reached is
// the server's business (see CheckWebhookURL).
func validateWebhookURL(p *problems, ptr, raw string) {
	if raw == "" {
		p.add(ptr, "is required")
		return
	}
	if len(raw) > MaxURLLength {
		p.add(ptr, "is %d bytes long; at most %d are allowed", len(raw), MaxURLLength)
		return
	}
	u, err := url.Parse(raw)
	if err != nil {
		msg := err.Error()
		var ue *url.Error
		if errors.As(err, &ue) {
			msg = ue.Err.Error()
		}
		p.add(ptr, "is not a valid URL: %s", msg)
		return
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		if u.Scheme == "" {
			p.add(ptr, "must be an absolute http or https URL, got %s", quoted.Short(raw))
		} else {
			p.add(ptr, "must be an http or https URL, got scheme %s", quoted.Short(u.Scheme))
		}
	case u.Host == "" || strings.HasPrefix(u.Host, ":"):
		p.add(ptr, "must name a host, got %s", quoted.Short(raw))
	}
}

// validateEvents checks a webhook's events: 1 to MaxWebhookEvents, each
// known and listed once.
func validateEvents(p *problems, ptr string, events []Event) {
	switch n := len(events); {
	case n == 0:
		p.add(ptr, "must list at least one event")
	case n > MaxWebhookEvents:
		p.add(ptr, "has %d events; at most %d are allowed", n, MaxWebhookEvents)
	}
	first := make(map[Event]int, len(events))
	for i, e := range events {
		at := index(ptr, i)
		if !e.Valid() {
			p.add(at, "unknown event %s; the events are %s", quoted.Short(string(e)), eventList())
			continue
		}
		if j, seen := first[e]; seen {
			p.add(at, "repeats %s, already at index %d", quoted.Short(string(e)), j)
			continue
		}
		first[e] = i
	}
}

// eventList names every event, for messages.
func eventList() string {
	names := make([]string, 0, len(Events()))
	for _, e := range Events() {
		names = append(names, string(e))
	}
	return strings.Join(names, ", ")
}
