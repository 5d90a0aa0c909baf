package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// DeliveryState is the state column of the deliveries table.
type DeliveryState int

// The states of a delivery.
const (
	DeliveryPending   DeliveryState = 0 // to be attempted (again)
	DeliveryDelivered DeliveryState = 1 // the receiver took it
	DeliveryGivenUp   DeliveryState = 2 // no further attempt
)

// Outcome is what an attempt at a delivery leaves in its row.
type Outcome struct {
	State DeliveryState
	Error string // what went wrong, for the record
	// NextAttempt is when to try again, in Unix milliseconds; 0 keeps the
	// row's next attempt as it is.
	NextAttempt int64
}

// Emit writes event ev of task t, happening at now, to the outbox: one
// delivery per URL subscribed to ev (see [exporttask.Subscribers]), due at
// once.
func Emit(ctx context.Context, tx Tx, t exporttask.Task, ev exporttask.Event, now time.Time) error {
	urls := exporttask.Subscribers(t, ev)
	if len(urls) == 0 {
		return nil
	}
	payload, err := exporttask.MarshalEvent(ev, t, now)
	if err != nil {
		return err
	}
	if err := tx.InsertDeliveries(ctx, t.ID, urls, ev, payload, Millis(now)); err != nil {
		return fmt.Errorf("writing %s event to the outbox: %w", ev, err)
	}
	return nil
}

// ClaimDeliveries carries out [exporttask.Store.ClaimDeliveries] in one
// transaction of write: up to limit due deliveries are leased until
// now+lease.
func ClaimDeliveries(ctx context.Context, write Write, now time.Time, limit int, lease time.Duration) (ds []exporttask.Delivery, err error) {
	if limit <= 0 {
		return nil, nil
	}
	err = write(ctx, func(tx Tx) error {
		var err error
		ds, err = tx.DueDeliveries(ctx, Millis(now), limit)
		if err != nil {
			return err
		}
		ids := make([]int64, len(ds))
		for i, d := range ds {
			ids[i] = d.ID
		}
		return tx.LeaseDeliveries(ctx, ids, Millis(now.Add(lease)))
	})
	if err != nil {
		return nil, err
	}
	return ds, nil
}

// DeliveryDone carries out [exporttask.Store.DeliveryDone] in one
// transaction of write: it records r as the outcome of an attempt at
// delivery id, still pending (else exporttask.ErrConflict).
func DeliveryDone(ctx context.Context, write Write, id int64, r exporttask.DeliveryResult) error {
	return write(ctx, func(tx Tx) error {
		state, err := tx.DeliveryState(ctx, id)
		if err != nil {
			return err
		}
		if state != DeliveryPending {
			return fmt.Errorf("%w: the delivery is already over", exporttask.ErrConflict)
		}
		return tx.RecordAttempt(ctx, id, outcome(r))
	})
}

// outcome is what result r leaves in a delivery's row.
func outcome(r exporttask.DeliveryResult) Outcome {
	o := Outcome{State: DeliveryPending, Error: r.Error}
	switch {
	case r.Delivered:
		o.State = DeliveryDelivered
	case r.NextAttempt.IsZero():
		o.State = DeliveryGivenUp
	default:
		o.NextAttempt = Millis(r.NextAttempt)
	}
	return o
}
