package exporttask

// CurrentEvents returns the events that brought t to its current state and
// still describe it: TASK_STARTED for an IN_PROGRESS task (and
// TASK_IN_PROGRESS too once it reported progress), otherwise the event of
// the move into its status (TASK_COMPLETED for COMPLETED, TASK_PAUSED for
// PAUSED, ...); none for PENDING. A subscriber that joins late (a
// duplicate create) is sent these events at once when it subscribes to
// them, so it does not wait for an event that already happened.
func CurrentEvents(t Task) []Event {
	switch t.Status {
	case StatusPending:
		return nil
	case StatusInProgress:
		if t.Progress > 0 {
			return []Event{EventStarted, EventInProgress}
		}
		return []Event{EventStarted}
	case StatusCompleted:
		return []Event{EventCompleted}
	case StatusFailed:
		return []Event{EventFailed}
	case StatusAborted:
		return []Event{EventAborted}
	case StatusPaused:
		return []Event{EventPaused}
	case StatusExpired:
		return []Event{EventExpired}
	case StatusArchived:
		return []Event{EventArchived}
	}
	return nil
}

// LateSubscriptions returns, for every event of [CurrentEvents](t), the
// subscriptions of merged that gained it compared with before: the
// receivers that must be sent that event now. merged is the result of
// [MergeWebhooks](before, ...).
func LateSubscriptions(t Task, before, merged []Webhook) map[Event][]Webhook {
	had := make(map[string]map[Event]bool, len(before))
	for _, w := range before {
		if had[w.URL] == nil {
			had[w.URL] = make(map[Event]bool)
		}
		for _, e := range w.Events {
			had[w.URL][e] = true
		}
	}
	var late map[Event][]Webhook
	for _, ev := range CurrentEvents(t) {
		for _, w := range merged {
			if had[w.URL][ev] {
				continue
			}
			for _, e := range w.Events {
				if e == ev {
					if late == nil {
						late = make(map[Event][]Webhook)
					}
					late[ev] = append(late[ev], w)
					break
				}
			}
		}
	}
	return late
}
