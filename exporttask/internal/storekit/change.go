package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// SaveTask writes t, which was in status before, with lease l, and keeps
// the customer's storage usage in step with what t counts in its new status
// (see [UsedBytes]). It returns t as
// stored.
func SaveTask(ctx context.Context, tx Tx, before exporttask.Status, t exporttask.Task, l Lease) (exporttask.Task, error) {
	doc, err := EncodeTask(t)
	if err != nil {
		return exporttask.Task{}, err
	}
	customer, err := tx.UpdateTask(ctx, t, doc, l)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("updating task %d: %w", t.ID, err)
	}
	if delta := UsedBytes(t.Status, t) - UsedBytes(before, t); delta != 0 {
		if err := tx.AddUsage(ctx, customer, delta); err != nil {
			return exporttask.Task{}, err
		}
	}
	return DecodeTask(t.ID, doc)
}

// UsedBytes is what task t counts against its customer's quota when its
// status is s: nothing unless s is [Live]; once COMPLETED with artifacts,
// the sum of their real sizes; before, the estimated size.
func UsedBytes(s exporttask.Status, t exporttask.Task) int64 {
	if !Live(s) {
		return 0
	}
	if s == exporttask.StatusCompleted && len(t.Artifacts) > 0 {
		var n int64
		for _, a := range t.Artifacts {
			n += a.Size
		}
		return n
	}
	return t.EstimatedSize
}

// MoveTo changes t's status to `to` through [exporttask.Transition],
// applies change (when not nil), releases any lease, saves t and emits the
// event. An illegal move is an taskstore.ErrConflict wrapping the
// *exporttask.TransitionError.
func MoveTo(ctx context.Context, tx Tx, t exporttask.Task, to exporttask.Status, now time.Time, change func(*exporttask.Task)) (exporttask.Task, error) {
	ev, err := exporttask.Transition(t.Status, to)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%w: %w", taskstore.ErrConflict, err)
	}
	before := t.Status
	t.Status = to
	if change != nil {
		change(&t)
	}
	t, err = SaveTask(ctx, tx, before, t, Lease{})
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, Emit(ctx, tx, t, ev, now)
}

// mergeInto adds webhooks to the existing task t and, when that changed
// it, saves it, keeping its lease, and emits TASK_UPDATED; then it sends the
// receivers that newly subscribed to an event that already happened (see
// [CurrentEvents]) that event at once. A merge that would leave
// more than exporttask.MaxWebhooks URLs is refused with a
// *exporttask.ValidationError naming /webhook.
func mergeInto(ctx context.Context, tx Tx, t exporttask.Task, webhooks []exporttask.Webhook, now time.Time) (exporttask.Task, error) {
	merged, changed := MergeWebhooks(t.Webhook, webhooks)
	if !changed {
		return t, nil
	}
	if len(merged) > exporttask.MaxWebhooks {
		return exporttask.Task{}, &exporttask.ValidationError{Problems: []exporttask.FieldError{{
			Pointer: "/webhook",
			Message: fmt.Sprintf("merging these webhooks into the equivalent task %d would give it %d webhook URLs; at most %d are allowed",
				t.ID, len(merged), exporttask.MaxWebhooks),
		}}}
	}
	// Keep the lease as it is: a worker may hold the task.
	l, err := tx.LeasedTask(ctx, t.ID)
	if err != nil {
		return exporttask.Task{}, err
	}
	before := t.Webhook
	t.Webhook = merged
	t, err = SaveTask(ctx, tx, t.Status, t, l.Lease)
	if err != nil {
		return exporttask.Task{}, err
	}
	if err := Emit(ctx, tx, t, exporttask.EventUpdated, now); err != nil {
		return exporttask.Task{}, err
	}
	late := LateSubscriptions(t, before, merged)
	for _, ev := range CurrentEvents(t) {
		if err := EmitTo(ctx, tx, t, ev, late[ev], now); err != nil {
			return exporttask.Task{}, err
		}
	}
	return t, nil
}
