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

// Outgoing is one delivery to write: where, and the body it carries.
type Outgoing struct {
	URL     string
	Payload []byte
}

// Emit writes event ev of task t, happening at now, to the outbox: one
// delivery per URL subscribed to ev (see [exporttask.SubscriptionsTo]), due
// at once, each with the thin payload of its own subscription.
func Emit(ctx context.Context, tx Tx, t exporttask.Task, ev exporttask.Event, now time.Time) error {
	return EmitTo(ctx, tx, t, ev, exporttask.SubscriptionsTo(t, ev), now)
}

// EmitTo writes event ev of task t, happening at now, to the outbox for
// the subscriptions subs only.
func EmitTo(ctx context.Context, tx Tx, t exporttask.Task, ev exporttask.Event, subs []exporttask.Webhook, now time.Time) error {
	if len(subs) == 0 {
		return nil
	}
	out := make([]Outgoing, len(subs))
	for i, sub := range subs {
		payload, err := exporttask.MarshalEvent(ev, t, sub, now)
		if err != nil {
			return err
		}
		out[i] = Outgoing{URL: sub.URL, Payload: payload}
	}
	if err := tx.InsertDeliveries(ctx, t.ID, ev, out, Millis(now)); err != nil {
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
