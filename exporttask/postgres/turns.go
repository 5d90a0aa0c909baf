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
// whose turn it is, among those below maxRunning (and, when maxTime > 0,
// among the tasks estimated to take at most maxTime seconds), and moves
// that customer to the back of the round; see [storekit.Tx].
//
// A claim locks the customer's customer_turns row before counting its
// running tasks and taking one, so concurrent claims (in any process)
// cannot both pass the limit. A customer whose row another claim holds is
// passed over at first, which sends concurrent claims to different
// customers; when every candidate was held so, and this claim holds no
// customer row itself (so no two claims can wait on each other), it waits
// for the first of them. Tasks other transactions hold are skipped.
func (w txn) Claimable(ctx context.Context, now int64, maxRunning int, maxTime int64) (exporttask.Task, bool, error) {
	rows, err := w.tx.Query(ctx, `WITH RECURSIVE cs(customer) AS (
		   SELECT (SELECT customer FROM tasks WHERE status IN ('PENDING', 'IN_PROGRESS') ORDER BY customer LIMIT 1)
		   UNION ALL
		   SELECT (SELECT customer FROM tasks WHERE status IN ('PENDING', 'IN_PROGRESS') AND customer > cs.customer
		           ORDER BY customer LIMIT 1)
		   FROM cs WHERE cs.customer IS NOT NULL)
		 SELECT cs.customer, c.customer IS NULL FROM cs
		 CROSS JOIN LATERAL (SELECT 1 FROM tasks q WHERE q.customer = cs.customer
		   AND q.status IN ('PENDING', 'IN_PROGRESS') AND (q.status = 'PENDING' OR q.lease_until < $1)
		   AND ($3 <= 0 OR coalesce((q.doc->>'estimatedTime')::bigint, 0) <= $3)
		   ORDER BY q.id LIMIT 1) AS claimable
		 LEFT JOIN customer_turns c ON c.customer = cs.customer
		 WHERE cs.customer IS NOT NULL
		 ORDER BY coalesce(c.last_claim, 0), cs.customer LIMIT $2`, now, maxCandidates, maxTime)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("reading the customers' turns: %w", err)
	}
	customers, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (candidate, error) {
		var c candidate
		err := r.Scan(&c.customer, &c.new)
		return c, err
	})
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("reading the customers' turns: %w", err)
	}
	var held []candidate
	for _, c := range customers {
		t, ok, locked, err := w.claimFrom(ctx, c, now, maxRunning, maxTime, true)
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
	t, ok, _, err := w.claimFrom(ctx, held[0], now, maxRunning, maxTime, false)
	return t, ok, err
}

// candidate is a customer with a claimable task; new when it has no
// customer_turns row yet.
type candidate struct {
	customer string
	new      bool
}

// claimFrom locks the customer's turn row, adding it for a new customer
// and passing the customer over when another transaction holds the row
// and skip is set; then it takes the customer's oldest claimable task
// (estimated at most maxTime seconds, when maxTime > 0) unless the
// customer is at maxRunning, and moves the customer to the back
// of the round. locked reports whether the row was locked.
func (w txn) claimFrom(ctx context.Context, c candidate, now int64, maxRunning int, maxTime int64, skip bool) (t exporttask.Task, ok, locked bool, err error) {
	customer := c.customer
	if c.new {
		// Another claim adding it at once makes this one wait for its end.
		_, err := w.tx.Exec(ctx, `INSERT INTO customer_turns (customer) VALUES ($1) ON CONFLICT DO NOTHING`, customer)
		if err != nil {
			return exporttask.Task{}, false, false, fmt.Errorf("adding the turn of customer %q: %w", customer, err)
		}
	}
	lock := `SELECT true FROM customer_turns WHERE customer = $1 FOR UPDATE`
	if skip {
		lock += ` SKIP LOCKED`
	}
	if err := w.tx.QueryRow(ctx, lock, customer).Scan(&locked); errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, false, false, nil
	} else if err != nil {
		return exporttask.Task{}, false, false, fmt.Errorf("locking the turn of customer %q: %w", customer, err)
	}
	// A statement of its own, begun after the lock: it sees the claims
	// committed before, so the count is exact.
	t, err = storekit.ScanTask(w.tx.QueryRow(ctx, `WITH task AS (
		   SELECT id, doc FROM tasks
		   WHERE customer = $1 AND status IN ('PENDING', 'IN_PROGRESS') AND (status = 'PENDING' OR lease_until < $2)
		     AND ($3 <= 0 OR (SELECT count(*) FROM tasks r
		       WHERE r.customer = $1 AND r.status = 'IN_PROGRESS' AND r.lease_until >= $2) < $3)
		     AND ($4 <= 0 OR coalesce((doc->>'estimatedTime')::bigint, 0) <= $4)
		   ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
		 ), turn AS (
		   UPDATE customer_turns SET last_claim = nextval('customer_turn_seq')
		   WHERE customer = $1 AND EXISTS (SELECT 1 FROM task)
		 )
		 SELECT id, doc FROM task`, customer, now, maxRunning, maxTime))
	if errors.Is(err, pgx.ErrNoRows) {
		return exporttask.Task{}, false, true, nil // at the limit, or nothing left to take
	}
	if err != nil {
		return exporttask.Task{}, false, true, fmt.Errorf("taking a task of customer %q: %w", customer, err)
	}
	return t, true, true, nil
}
