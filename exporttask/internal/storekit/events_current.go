package storekit

import "github.com/openapi-viewer/viewer/exporttask"

// CurrentEvents returns the events that brought t to its current state and
// still describe it: TASK_STARTED for an IN_PROGRESS task (and
// TASK_IN_PROGRESS too once it reported progress), otherwise the event of
// the move into its status (TASK_COMPLETED for COMPLETED, TASK_PAUSED for
// PAUSED, ...); none for PENDING. A subscriber that joins late (a
// duplicate create) is sent these events at once when it subscribes to
// them, so it does not wait for an event that already happened.
func CurrentEvents(t exporttask.Task) []exporttask.Event {
	switch t.Status {
	case exporttask.StatusPending:
		return nil
	case exporttask.StatusInProgress:
		if t.Progress > 0 {
			return []exporttask.Event{exporttask.EventStarted, exporttask.EventInProgress}
		}
		return []exporttask.Event{exporttask.EventStarted}
	case exporttask.StatusCompleted:
		return []exporttask.Event{exporttask.EventCompleted}
	case exporttask.StatusFailed:
		return []exporttask.Event{exporttask.EventFailed}
	case exporttask.StatusAborted:
		return []exporttask.Event{exporttask.EventAborted}
	case exporttask.StatusPaused:
		return []exporttask.Event{exporttask.EventPaused}
	case exporttask.StatusExpired:
		return []exporttask.Event{exporttask.EventExpired}
	case exporttask.StatusArchived:
		return []exporttask.Event{exporttask.EventArchived}
	}
	return nil
}

// LateSubscriptions returns, for every event of [CurrentEvents](t), the
// subscriptions of merged that gained it compared with before: the
// receivers that must be sent that event now. merged is the result of
// [MergeWebhooks](before, ...).
func LateSubscriptions(t exporttask.Task, before, merged []exporttask.Webhook) map[exporttask.Event][]exporttask.Webhook {
	had := make(map[string]map[exporttask.Event]bool, len(before))
	for _, w := range before {
		if had[w.URL] == nil {
			had[w.URL] = make(map[exporttask.Event]bool)
		}
		for _, e := range w.Events {
			had[w.URL][e] = true
		}
	}
	var late map[exporttask.Event][]exporttask.Webhook
	for _, ev := range CurrentEvents(t) {
		for _, w := range merged {
			if had[w.URL][ev] {
				continue
			}
			for _, e := range w.Events {
				if e == ev {
					if late == nil {
						late = make(map[exporttask.Event][]exporttask.Webhook)
					}
					late[ev] = append(late[ev], w)
					break
				}
			}
		}
	}
	return late
}
