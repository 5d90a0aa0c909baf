package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// FinalAt is when t became final, as a store records it for [Purge]
// (Unix milliseconds): the finishedAt of an ABORTED or FAILED task, the
// expiredAt of an EXPIRED one; 0 for any other status, which Purge never
// removes.
func FinalAt(t exporttask.Task) int64 {
	switch t.Status {
	case exporttask.StatusAborted, exporttask.StatusFailed:
		return Millis(t.FinishedAt.Time)
	case exporttask.StatusExpired:
		return Millis(t.ExpiredAt.Time)
	}
	return 0
}

// Dismiss carries out [taskstore.Tasks.Dismiss] in one transaction of
// write: the customer's final task id is deleted with its deliveries and
// keys, and what it held against the quota is freed.
func Dismiss(ctx context.Context, write Write, customer string, id int64) error {
	return write(ctx, func(tx Tx) error {
		t, err := tx.CustomerTask(ctx, customer, id)
		if err != nil {
			return err
		}
		if !t.Status.Final() {
			return fmt.Errorf("%w: task %d is %s, not final", taskstore.ErrConflict, id, t.Status)
		}
		docBytes, err := tx.DeleteTask(ctx, id)
		if err != nil {
			return fmt.Errorf("deleting task %d: %w", id, err)
		}
		return tx.AddUsage(ctx, customer, -UsedBytes(t.Status, t)-docBytes)
	})
}

// Purge carries out [taskstore.Queue.Purge] in one transaction of write:
// up to limit ABORTED, FAILED or EXPIRED tasks final at or before before
// are deleted with their deliveries and keys, and their document bytes
// (all they hold against the quota: none of these statuses counts an
// estimate or artifacts, see [UsedBytes]) are freed. It returns their ids.
func Purge(ctx context.Context, write Write, before time.Time, limit int) (ids []int64, err error) {
	if limit <= 0 {
		return nil, nil
	}
	err = write(ctx, func(tx Tx) error {
		ids = nil
		due, err := tx.Purgeable(ctx, Millis(before), limit)
		if err != nil {
			return fmt.Errorf("reading the final tasks to remove: %w", err)
		}
		freed := map[string]int64{}
		for _, f := range due {
			n, err := tx.DeleteTask(ctx, f.ID)
			if err != nil {
				return fmt.Errorf("deleting task %d: %w", f.ID, err)
			}
			freed[f.Customer] += n
			ids = append(ids, f.ID)
		}
		for customer, n := range freed {
			if err := tx.AddUsage(ctx, customer, -n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}
