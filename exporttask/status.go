package exporttask

import (
	"errors"
	"fmt"
)

// Status is where a task is in its life; see [Transition].
type Status string

// The statuses.
const (
	StatusPending    Status = "PENDING"
	StatusInProgress Status = "IN_PROGRESS"
	StatusCompleted  Status = "COMPLETED"
	StatusFailed     Status = "FAILED"
	StatusAborted    Status = "ABORTED"
	StatusPaused     Status = "PAUSED"
	StatusExpired    Status = "EXPIRED"
	StatusArchived   Status = "ARCHIVED"
)

// Statuses lists every status.
func Statuses() []Status {
	return []Status{StatusPending, StatusInProgress, StatusCompleted, StatusFailed,
		StatusAborted, StatusPaused, StatusExpired, StatusArchived}
}

// Valid reports whether s is one of the documented statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusPending, StatusInProgress, StatusCompleted, StatusFailed,
		StatusAborted, StatusPaused, StatusExpired, StatusArchived:
		return true
	}
	return false
}

// Final reports whether the export work of a task in status s is over; a
// final task cannot be aborted, only expire or be archived.
func (s Status) Final() bool {
	switch s {
	case StatusCompleted, StatusFailed, StatusAborted, StatusExpired, StatusArchived:
		return true
	}
	return false
}

// Event names a change to a task that webhooks can subscribe to.
type Event string

// The events.
const (
	EventStarted    Event = "TASK_STARTED"     // PENDING -> IN_PROGRESS
	EventInProgress Event = "TASK_IN_PROGRESS" // progress reported, or PAUSED -> IN_PROGRESS
	EventUpdated    Event = "TASK_UPDATED"     // the task changed without a status change (webhooks merged)
	EventCompleted  Event = "TASK_COMPLETED"
	EventFailed     Event = "TASK_FAILED"
	EventAborted    Event = "TASK_ABORTED"
	EventExpired    Event = "TASK_EXPIRED"
	EventPaused     Event = "TASK_PAUSED"
	EventArchived   Event = "TASK_ARCHIVED"
)

// Events lists every event.
func Events() []Event {
	return []Event{EventStarted, EventInProgress, EventUpdated, EventCompleted,
		EventFailed, EventAborted, EventExpired, EventPaused, EventArchived}
}

// Valid reports whether e is one of the documented events.
func (e Event) Valid() bool {
	for _, v := range Events() {
		if v == e {
			return true
		}
	}
	return false
}

// transition is the state machine, as tabled in the package
// documentation: the event the move from -> to emits, and whether the move
// is legal.
func transition(from, to Status) (Event, bool) {
	switch from {
	case StatusPending:
		switch to {
		case StatusInProgress:
			return EventStarted, true
		case StatusPaused:
			return EventPaused, true
		case StatusFailed:
			return EventFailed, true
		case StatusAborted:
			return EventAborted, true
		}
	case StatusInProgress:
		switch to {
		case StatusCompleted:
			return EventCompleted, true
		case StatusFailed:
			return EventFailed, true
		case StatusAborted:
			return EventAborted, true
		case StatusPaused:
			return EventPaused, true
		}
	case StatusPaused:
		switch to {
		case StatusInProgress:
			return EventInProgress, true
		case StatusFailed:
			return EventFailed, true
		case StatusAborted:
			return EventAborted, true
		}
	case StatusCompleted:
		switch to {
		case StatusExpired:
			return EventExpired, true
		case StatusArchived:
			return EventArchived, true
		}
	case StatusFailed, StatusAborted, StatusExpired:
		if to == StatusArchived {
			return EventArchived, true
		}
	}
	return "", false
}

// ErrInvalidTransition is wrapped by every [TransitionError].
var ErrInvalidTransition = errors.New("exporttask: invalid status transition")

// TransitionError reports a status change that the state machine forbids.
type TransitionError struct {
	From, To Status
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("exporttask: a task cannot move from %s to %s", e.From, e.To)
}

// Unwrap returns [ErrInvalidTransition].
func (e *TransitionError) Unwrap() error { return ErrInvalidTransition }

// Transition checks a status change against the state machine and returns
// the event it emits, or a *[TransitionError]. A task starts PENDING; the
// moves (a test checks this table against the code):
//
//	from         to           event
//	PENDING      IN_PROGRESS  TASK_STARTED
//	PENDING      PAUSED       TASK_PAUSED
//	PENDING      FAILED       TASK_FAILED
//	PENDING      ABORTED      TASK_ABORTED
//	IN_PROGRESS  COMPLETED    TASK_COMPLETED
//	IN_PROGRESS  FAILED       TASK_FAILED
//	IN_PROGRESS  ABORTED      TASK_ABORTED
//	IN_PROGRESS  PAUSED       TASK_PAUSED
//	PAUSED       IN_PROGRESS  TASK_IN_PROGRESS
//	PAUSED       FAILED       TASK_FAILED
//	PAUSED       ABORTED      TASK_ABORTED
//	COMPLETED    EXPIRED      TASK_EXPIRED
//	COMPLETED    ARCHIVED     TASK_ARCHIVED
//	FAILED       ARCHIVED     TASK_ARCHIVED
//	ABORTED      ARCHIVED     TASK_ARCHIVED
//	EXPIRED      ARCHIVED     TASK_ARCHIVED
//
// COMPLETED, FAILED, ABORTED, EXPIRED and ARCHIVED are final
// ([Status.Final]); ARCHIVED is terminal. TASK_IN_PROGRESS and
// TASK_UPDATED also come without a status change (see [Event]).
func Transition(from, to Status) (Event, error) {
	ev, ok := transition(from, to)
	if !ok {
		return "", &TransitionError{From: from, To: to}
	}
	return ev, nil
}
