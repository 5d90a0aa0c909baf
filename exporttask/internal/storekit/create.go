package storekit

import (
	"context"
	"errors"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Create carries out [taskstore.Tasks.Create] in one transaction of
// write: it replays the task named by the Idempotency-Key (or refuses a
// request other than the one the key was recorded with, or the same over
// other data: see [CheckIdempotentRequest]), else merges the
// request's webhooks into a live equivalent task, else checks the quota and
// inserts a new PENDING task.
func Create(ctx context.Context, write Write, p taskstore.CreateParams) (t exporttask.Task, replayed bool, err error) {
	if err := CheckParams(p); err != nil {
		return exporttask.Task{}, false, err
	}
	err = write(ctx, func(tx Tx) error {
		var err error
		t, replayed, err = create(ctx, tx, p)
		return err
	})
	if err != nil {
		return exporttask.Task{}, false, err
	}
	return t, replayed, nil
}

// CheckParams refuses a create that a store cannot carry out as
// [taskstore.Tasks.Create] says: one with an Idempotency-Key but no
// fingerprint to record it with (p.Identity, see [taskstore.Identify]).
func CheckParams(p taskstore.CreateParams) error {
	if p.IdempotencyKey != "" && p.Identity.Fingerprint == "" {
		return errors.New("an Idempotency-Key needs the request's fingerprint (taskstore.Identify)")
	}
	return nil
}

// create is Create's transaction.
func create(ctx context.Context, tx Tx, p taskstore.CreateParams) (exporttask.Task, bool, error) {
	found, err := tx.LookUp(ctx, p)
	if err != nil {
		return exporttask.Task{}, false, err
	}

	if found.KeyTask > 0 {
		t, err := tx.CustomerTask(ctx, p.Customer, found.KeyTask)
		if err != nil {
			return exporttask.Task{}, false, err
		}
		if err := CheckIdempotentRequest(p.IdempotencyKey, t, found.KeyFingerprint, p.Identity.Fingerprint, p.Request); err != nil {
			return exporttask.Task{}, false, err
		}
		return t, true, nil
	}

	if found.Duplicate != nil {
		t, err := mergeInto(ctx, tx, *found.Duplicate, p.Request.Webhook, p.Now)
		if err != nil {
			return exporttask.Task{}, false, err
		}
		if p.IdempotencyKey != "" {
			if err := tx.RememberKey(ctx, p.Customer, p.IdempotencyKey, p.Identity.Fingerprint, t.ID); err != nil {
				return exporttask.Task{}, false, err
			}
		}
		return t, true, nil
	}

	t := NewTask(p)
	doc, err := EncodeTask(t)
	if err != nil {
		return exporttask.Task{}, false, err
	}
	if p.Quota > 0 {
		needed := p.EstimatedSize + int64(len(doc))
		if remaining := p.Quota - found.Used; needed > remaining {
			return exporttask.Task{}, false, &taskstore.QuotaError{
				Quota: p.Quota, Remaining: max(remaining, 0), Requested: needed}
		}
	}
	id, err := tx.InsertTask(ctx, p, t, doc)
	if err != nil {
		return exporttask.Task{}, false, err
	}
	return WithID(t, id), false, nil
}

// Abort carries out [taskstore.Tasks.Abort] in one transaction of write:
// the customer's task id moves to ABORTED, finished at now.
func Abort(ctx context.Context, write Write, customer string, id int64, now time.Time) (t exporttask.Task, err error) {
	err = write(ctx, func(tx Tx) error {
		var err error
		t, err = tx.CustomerTask(ctx, customer, id)
		if err != nil {
			return err
		}
		t, err = MoveTo(ctx, tx, t, exporttask.StatusAborted, now, func(t *exporttask.Task) {
			t.FinishedAt = exporttask.NewTime(now)
		})
		return err
	})
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, nil
}
