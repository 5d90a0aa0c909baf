package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// InsertDeliveries writes one delivery per entry of out, in order, in one
// statement.
func (w txn) InsertDeliveries(ctx context.Context, taskID int64, ev exporttask.Event, out []storekit.Outgoing, at int64) error {
	urls := make([]string, len(out))
	hosts := make([]string, len(out))
	payloads := make([][]byte, len(out))
	for i, o := range out {
		urls[i], hosts[i], payloads[i] = o.URL, o.Host, o.Payload
	}
	_, err := w.tx.Exec(ctx,
		`INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt)
		 SELECT $1, u, h, $3, p, $5, $5 FROM unnest($2::text[], $6::text[], $4::bytea[]) WITH ORDINALITY AS x (u, h, p, n) ORDER BY n`,
		taskID, urls, string(ev), payloads, at, hosts)
	return err
}

// DueDeliveries reads and locks the due deliveries, skipping the rows
// another transaction holds.
func (w txn) DueDeliveries(ctx context.Context, q storekit.Due) ([]taskstore.Delivery, error) {
	perHost := q.PerHost
	if perHost <= 0 {
		perHost = q.Limit
	}
	rows, err := w.tx.Query(ctx,
		`WITH due AS (
		   SELECT d.id, ROW_NUMBER() OVER (PARTITION BY d.host ORDER BY d.next_attempt, d.id) AS n
		   FROM deliveries d
		   WHERE d.state = 0 AND d.next_attempt <= $1 AND d.lease_until < $1
		     AND NOT (d.host = ANY($2::text[]))
		     AND NOT EXISTS (SELECT 1 FROM deliveries e
		                     WHERE e.state = 0 AND e.task_id = d.task_id AND e.url = d.url AND e.id < d.id))
		 SELECT d.id, d.task_id, d.url, d.event, d.attempts, d.payload, d.created_at, d.host, t.customer
		 FROM deliveries d JOIN due ON due.id = d.id JOIN tasks t ON t.id = d.task_id
		 WHERE due.n <= $3
		   -- Checked again on the latest row version once locked: another
		   -- transaction may have claimed it since this one's snapshot.
		   AND d.state = 0 AND d.next_attempt <= $1 AND d.lease_until < $1
		 ORDER BY d.next_attempt, d.id LIMIT $4 FOR UPDATE OF d SKIP LOCKED`,
		q.Now, append([]string{}, q.SkipHosts...), perHost, q.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (taskstore.Delivery, error) { return storekit.ScanDelivery(r) })
}

// LeaseDeliveries leases the deliveries ids until until.
func (w txn) LeaseDeliveries(ctx context.Context, ids []int64, until int64) error {
	_, err := w.tx.Exec(ctx, `UPDATE deliveries SET lease_until = $1 WHERE id = ANY($2)`, until, ids)
	return err
}

// DeliveryState reads and locks delivery id's state.
func (w txn) DeliveryState(ctx context.Context, id int64) (int, error) {
	var state int
	err := w.tx.QueryRow(ctx, `SELECT state FROM deliveries WHERE id = $1 FOR UPDATE`, id).Scan(&state)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, taskstore.ErrNotFound
	}
	return state, err
}

// RecordAttempt counts an attempt at delivery id and records o.
func (w txn) RecordAttempt(ctx context.Context, id int64, o storekit.Outcome) error {
	_, err := w.tx.Exec(ctx,
		`UPDATE deliveries SET state = $1, attempts = attempts + 1, lease_until = 0, last_error = $2,
		        next_attempt = CASE WHEN $3::bigint = 0 THEN next_attempt ELSE $3::bigint END, done_at = $5,
		        last_status_code = $6, last_error_class = $7
		 WHERE id = $4`, o.State, o.Error, o.NextAttempt, id, o.DoneAt, o.StatusCode, string(o.Class))
	return err
}

// PruneDeliveries deletes finished deliveries done before before,
// skipping rows another transaction holds.
func (w txn) PruneDeliveries(ctx context.Context, before int64, limit int) (int, error) {
	tag, err := w.tx.Exec(ctx,
		`DELETE FROM deliveries WHERE id IN (
		   SELECT id FROM deliveries WHERE state <> 0 AND done_at < $1
		   ORDER BY done_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)`, before, limit)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}

// TaskDeliveries reads a task's deliveries by id.
func (w txn) TaskDeliveries(ctx context.Context, taskID, after int64, limit int) ([]taskstore.DeliveryRecord, error) {
	rows, err := w.tx.Query(ctx,
		`SELECT id, task_id, url, event, state, attempts, last_status_code, last_error_class, last_error,
		        created_at, next_attempt, done_at
		 FROM deliveries WHERE task_id = $1 AND id > $2 ORDER BY id LIMIT $3`, taskID, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (taskstore.DeliveryRecord, error) { return storekit.ScanDeliveryRecord(r) })
}

// CopyDelivery writes a new pending copy of a delivery.
func (w txn) CopyDelivery(ctx context.Context, taskID, deliveryID, at int64) (int64, error) {
	var id int64
	err := w.tx.QueryRow(ctx,
		`INSERT INTO deliveries (task_id, url, host, event, payload, created_at, next_attempt)
		 SELECT task_id, url, host, event, payload, $1, $1 FROM deliveries WHERE id = $2 AND task_id = $3
		 RETURNING id`, at, deliveryID, taskID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("%w: task %d has no delivery %d", taskstore.ErrNotFound, taskID, deliveryID)
	}
	return id, err
}
