package storekit

import (
	"context"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// StateColumn is how the state column of the deliveries table holds s:
// 0 pending (the stores' SQL reads state = 0 as pending), 1 delivered, 2
// given up.
func StateColumn(s taskstore.DeliveryState) int {
	switch s {
	case taskstore.DeliveryDelivered:
		return 1
	case taskstore.DeliveryGivenUp:
		return 2
	}
	return 0
}

// StateOfColumn is the state a value of the state column holds (see
// [StateColumn]).
func StateOfColumn(v int) taskstore.DeliveryState {
	switch v {
	case 0:
		return taskstore.DeliveryPending
	case 1:
		return taskstore.DeliveryDelivered
	}
	return taskstore.DeliveryGivenUp
}

// Outcome is what an attempt at a delivery leaves in its row.
type Outcome struct {
	State int // the state column (see [StateColumn])
	// StatusCode and Class are the last_status_code and last_error_class
	// columns: see [taskstore.DeliveryResult].
	StatusCode int
	Class      exporttask.DeliveryErrorClass
	Error      string // what went wrong, for the record
	// NextAttempt is when to try again, in Unix milliseconds; 0 keeps the
	// row's next attempt as it is.
	NextAttempt int64
	// DoneAt is when the attempt ended, in Unix milliseconds: for a
	// delivered or given-up delivery when it ended (pruning counts from
	// it), for a pending one when it was last attempted. The done_at
	// column keeps it; a row never attempted has 0 there.
	DoneAt int64
}

// Outgoing is one delivery to write: where, and the body it carries.
type Outgoing struct {
	URL     string
	Host    string // taskstore.DeliveryHost(URL)
	Payload []byte
}

// Emit writes event ev of task t, happening at now, to the outbox: one
// delivery per URL subscribed to ev (see [SubscriptionsTo]), due
// at once, each with the thin payload of its own subscription.
func Emit(ctx context.Context, tx Tx, t exporttask.Task, ev exporttask.Event, now time.Time) error {
	return EmitTo(ctx, tx, t, ev, SubscriptionsTo(t, ev), now)
}

// EmitTo writes event ev of task t, happening at now, to the outbox for
// the subscriptions subs only.
func EmitTo(ctx context.Context, tx Tx, t exporttask.Task, ev exporttask.Event, subs []exporttask.Webhook, now time.Time) error {
	if len(subs) == 0 {
		return nil
	}
	out := make([]Outgoing, len(subs))
	for i, sub := range subs {
		payload, err := MarshalEvent(ev, t, sub, now)
		if err != nil {
			return err
		}
		out[i] = Outgoing{URL: sub.URL, Host: taskstore.DeliveryHost(sub.URL), Payload: payload}
	}
	if err := tx.InsertDeliveries(ctx, t.ID, ev, out, Millis(now)); err != nil {
		return fmt.Errorf("writing %s event to the outbox: %w", ev, err)
	}
	return nil
}

// ClaimDeliveries carries out [taskstore.Outbox.ClaimDeliveries] in one
// transaction of write: up to c.Limit due deliveries are leased until
// c.Now+c.Lease.
func ClaimDeliveries(ctx context.Context, write Write, c taskstore.DeliveryClaim) (ds []taskstore.Delivery, err error) {
	if c.Limit <= 0 {
		return nil, nil
	}
	err = write(ctx, func(tx Tx) error {
		var err error
		ds, err = tx.DueDeliveries(ctx, Due{Now: Millis(c.Now), Limit: c.Limit, SkipHosts: c.SkipHosts, PerHost: c.PerHost})
		if err != nil {
			return err
		}
		ids := make([]int64, len(ds))
		for i, d := range ds {
			ids[i] = d.ID
		}
		return tx.LeaseDeliveries(ctx, ids, Millis(c.Now.Add(c.Lease)))
	})
	if err != nil {
		return nil, err
	}
	return ds, nil
}

// Due selects the deliveries [Tx.DueDeliveries] reads.
type Due struct {
	Now       int64 // Unix milliseconds
	Limit     int
	SkipHosts []string
	PerHost   int // 0: no bound
}

// DeliveryDone carries out [taskstore.Outbox.DeliveryDone] in one
// transaction of write: it records r as the outcome of an attempt at
// delivery id, still pending (else taskstore.ErrConflict).
func DeliveryDone(ctx context.Context, write Write, id int64, r taskstore.DeliveryResult) error {
	return write(ctx, func(tx Tx) error {
		state, err := tx.DeliveryState(ctx, id)
		if err != nil {
			return err
		}
		if StateOfColumn(state) != taskstore.DeliveryPending {
			return fmt.Errorf("%w: the delivery is already over", taskstore.ErrConflict)
		}
		return tx.RecordAttempt(ctx, id, outcome(r))
	})
}

// PruneDeliveries carries out [taskstore.Outbox.PruneDeliveries] in one
// transaction of write.
func PruneDeliveries(ctx context.Context, write Write, before time.Time, limit int) (n int, err error) {
	if limit <= 0 {
		return 0, nil
	}
	err = write(ctx, func(tx Tx) error {
		var err error
		n, err = tx.PruneDeliveries(ctx, Millis(before), limit)
		return err
	})
	return n, err
}

// ListDeliveries carries out [taskstore.Outbox.ListDeliveries] in one
// transaction of write.
func ListDeliveries(ctx context.Context, write Write, customer string, id, after int64, limit int) (ds []taskstore.DeliveryRecord, err error) {
	err = write(ctx, func(tx Tx) error {
		if _, err := tx.CustomerTask(ctx, customer, id); err != nil {
			return err
		}
		var err error
		ds, err = tx.TaskDeliveries(ctx, id, after, limit)
		return err
	})
	return ds, err
}

// Redeliver carries out [taskstore.Outbox.Redeliver] in one transaction of
// write.
func Redeliver(ctx context.Context, write Write, customer string, id, deliveryID int64, now time.Time) (d taskstore.DeliveryRecord, err error) {
	err = write(ctx, func(tx Tx) error {
		if _, err := tx.CustomerTask(ctx, customer, id); err != nil {
			return err
		}
		if err := refusePendingTwin(ctx, tx, id, deliveryID); err != nil {
			return err
		}
		newID, err := tx.CopyDelivery(ctx, id, deliveryID, Millis(now))
		if err != nil {
			return err
		}
		ds, err := tx.TaskDeliveries(ctx, id, newID-1, 1)
		if err != nil {
			return err
		}
		if len(ds) != 1 || ds[0].ID != newID {
			return fmt.Errorf("reading back redelivery %d: not found", newID)
		}
		d = ds[0]
		return nil
	})
	return d, err
}

// refusePendingTwin returns taskstore.ErrDeliveryPending when task id
// has a pending delivery of the same event to the same URL as delivery
// deliveryID (that one included), and taskstore.ErrNotFound when it has
// no delivery deliveryID. A task has few deliveries (its webhooks times
// its events, plus redeliveries, which this bounds), so it reads them all.
func refusePendingTwin(ctx context.Context, tx Tx, id, deliveryID int64) error {
	const page = 500
	var all []taskstore.DeliveryRecord
	for after := int64(0); ; {
		ds, err := tx.TaskDeliveries(ctx, id, after, page)
		if err != nil {
			return err
		}
		all = append(all, ds...)
		if len(ds) < page {
			break
		}
		after = ds[len(ds)-1].ID
	}
	var target *taskstore.DeliveryRecord
	for i := range all {
		if all[i].ID == deliveryID {
			target = &all[i]
		}
	}
	if target == nil {
		return fmt.Errorf("%w: task %d has no delivery %d", taskstore.ErrNotFound, id, deliveryID)
	}
	for _, d := range all {
		if d.State == taskstore.DeliveryPending && d.URL == target.URL && d.Event == target.Event {
			return fmt.Errorf("redelivering %d: delivery %d: %w", deliveryID, d.ID, taskstore.ErrDeliveryPending)
		}
	}
	return nil
}

// ScanDeliveryRecord reads a row of (id, task_id, url, event, state,
// attempts, last_status_code, last_error_class, last_error, created_at,
// next_attempt, done_at) of the deliveries table.
func ScanDeliveryRecord(row Scanner) (taskstore.DeliveryRecord, error) {
	var (
		d                     taskstore.DeliveryRecord
		state                 int
		created, next, doneAt int64
	)
	if err := row.Scan(&d.ID, &d.TaskID, &d.URL, &d.Event, &state, &d.Attempts, &d.LastStatusCode, &d.LastErrorClass,
		&d.LastError, &created, &next, &doneAt); err != nil {
		return taskstore.DeliveryRecord{}, err
	}
	d.CreatedAt = exporttask.NewTime(time.UnixMilli(created))
	if d.Attempts > 0 && doneAt != 0 {
		d.LastAttemptAt = exporttask.NewTime(time.UnixMilli(doneAt))
	}
	d.State = StateOfColumn(state)
	if d.State == taskstore.DeliveryPending {
		d.NextAttemptAt = exporttask.NewTime(time.UnixMilli(next))
	} else {
		d.DoneAt = exporttask.NewTime(time.UnixMilli(doneAt))
	}
	return d, nil
}

// outcome is what result r leaves in a delivery's row.
func outcome(r taskstore.DeliveryResult) Outcome {
	at := r.At
	if at.IsZero() {
		at = time.Now()
	}
	state := taskstore.DeliveryPending
	switch {
	case r.Delivered:
		state = taskstore.DeliveryDelivered
	case r.NextAttempt.IsZero():
		state = taskstore.DeliveryGivenUp
	}
	o := Outcome{State: StateColumn(state), StatusCode: r.StatusCode, Class: r.Class, Error: r.Error, DoneAt: Millis(at)}
	if state == taskstore.DeliveryPending {
		o.NextAttempt = Millis(r.NextAttempt)
	}
	return o
}
