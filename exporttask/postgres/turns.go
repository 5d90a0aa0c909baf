package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// maxCandidates bounds the customers one claim tries, in turn order.
const maxCandidates = 64

// Claimable reads and locks the oldest claimable task of the customer
// whose turn it is, among those below maxRunning, and moves that customer
// to the back of the round; see [storekit.Tx].
//
// A claim locks the customer's customer_turns row before counting its
// running tasks and taking one, so concurrent claims (in any process)
// cannot both pass the limit. A customer whose row another claim holds is
// passed over at first, which sends concurrent claims to different
// customers; when every candidate was held so, and this claim holds no
// customer row itself (so no two claims can wait on each other), it waits
// for the first of them. Tasks other transactions hold are skipped.
func (w txn) Claimable(ctx context.Context, now int64, maxRunning int) (exporttask.Task, bool, error) {
	rows, err := w.tx.Query(ctx, `SELECT c.customer FROM customer_turns c
		 WHERE EXISTS (SELECT 1 FROM tasks q WHERE q.customer = c.customer
		   AND q.status IN ('PENDING', 'IN_PROGRESS') AND (q.status = 'PENDING' OR q.lease_until < $1))
		 ORDER BY c.last_claim, c.customer LIMIT $2`, now, maxCandidates)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("reading the customers' turns: %w", err)
	}
	customers, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("reading the customers' turns: %w", err)
	}
	var held []string
	for _, c := range customers {
		t, ok, locked, err := w.claimFrom(ctx, c, now, maxRunning, true)
		if err != nil || ok {
			return t, ok, err
		}
		if !locked {
			held = append(held, c)
		}
	}
	if len(held) == 0 || len(held) < len(customers) {
		return exporttask.Task{}, false, nil
	}
	t, ok, _, err := w.claimFrom(ctx, held[0], now, maxRunning, false)
	return t, ok, err
}

// claimFrom locks customer's turn row (skipping it when another
// transaction holds it and skip is set), then takes the customer's oldest
// claimable task unless the customer is at maxRunning, and moves the
// customer to the back of the round. locked reports whether the row was
// locked.
func (w txn) claimFrom(ctx context.Context, customer string, now int64, maxRunning int, skip bool) (t exporttask.Task, ok, locked bool, err error) {
	lock := `SELECT true FROM customer_turns WHERE customer = $1 FOR UPDATE`
	if skip {
		lock += ` SKIP LOCKED`
	}
	if err := w.tx.QueryRow(ctx, lock, customer).Scan(&locked); errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, false, false, nil
	} else if err != nil {
		return exporttask.Task{}, false, false, fmt.Errorf("locking the turn of customer %q: %w", customer, err)
	}
	if maxRunning > 0 {
		var running int
		err := w.tx.QueryRow(ctx, `SELECT count(*) FROM tasks
			 WHERE customer = $1 AND status = 'IN_PROGRESS' AND lease_until >= $2`, customer, now).Scan(&running)
		if err != nil {
			return exporttask.Task{}, false, true, fmt.Errorf("counting the running tasks of customer %q: %w", customer, err)
		}
		if running >= maxRunning {
			return exporttask.Task{}, false, true, nil
		}
	}
	t, err = storekit.ScanTask(w.tx.QueryRow(ctx, `SELECT id, doc FROM tasks
		 WHERE customer = $1 AND status IN ('PENDING', 'IN_PROGRESS') AND (status = 'PENDING' OR lease_until < $2)
		 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`, customer, now))
	if errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, false, true, nil
	}
	if err != nil {
		return exporttask.Task{}, false, true, fmt.Errorf("reading a task of customer %q: %w", customer, err)
	}
	_, err = w.tx.Exec(ctx, `UPDATE customer_turns SET last_claim = nextval('customer_turn_seq') WHERE customer = $1`, customer)
	if err != nil {
		return exporttask.Task{}, false, true, fmt.Errorf("taking the turn of customer %q: %w", customer, err)
	}
	return t, true, true, nil
}
