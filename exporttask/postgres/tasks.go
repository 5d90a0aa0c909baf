package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask"
)

// customerLock is the first key of the transaction advisory lock that
// serialises the creates of one customer; the second is a hash of the
// customer.
const customerLock = 0x65787074 // "expt"

// Create stores a new PENDING task unless the Idempotency-Key or the dedup
// key names an existing one; see [exporttask.Store].
func (db *DB) Create(ctx context.Context, p exporttask.CreateParams) (exporttask.Task, bool, error) {
	var (
		t        exporttask.Task
		replayed bool
	)
	err := db.write(ctx, func(tx pgx.Tx) error {
		var err error
		t, replayed, err = create(ctx, tx, p)
		return err
	})
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("postgres: create task: %w", err)
	}
	return t, replayed, nil
}

func create(ctx context.Context, tx pgx.Tx, p exporttask.CreateParams) (exporttask.Task, bool, error) {
	// Creates of one customer run one at a time, in every replica, so the
	// checks below still hold at the insert.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, int32(customerLock), p.Customer); err != nil {
		return exporttask.Task{}, false, fmt.Errorf("locking the customer: %w", err)
	}

	if p.IdempotencyKey != "" {
		var id int64
		err := tx.QueryRow(ctx,
			`SELECT task_id FROM idempotency_keys WHERE customer = $1 AND key = $2`,
			p.Customer, p.IdempotencyKey).Scan(&id)
		if err == nil {
			t, err := customerTask(ctx, tx, p.Customer, id)
			return t, true, err
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return exporttask.Task{}, false, fmt.Errorf("reading idempotency key: %w", err)
		}
	}

	if p.DedupKey != "" {
		t, err := scanTask(tx.QueryRow(ctx,
			`SELECT id, doc FROM tasks
			 WHERE customer = $1 AND dedup_key = $2 AND status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED')
			   AND (status <> 'COMPLETED' OR expired_at > $3)
			 ORDER BY id DESC LIMIT 1 FOR UPDATE`,
			p.Customer, p.DedupKey, millis(p.Now)))
		switch {
		case err == nil:
			t, err = mergeWebhooks(ctx, tx, t, p.Request.Webhook, p.Now)
			if err != nil {
				return exporttask.Task{}, false, err
			}
			if err := rememberKey(ctx, tx, p, t.ID); err != nil {
				return exporttask.Task{}, false, err
			}
			return t, true, nil
		case !errors.Is(err, pgx.ErrNoRows):
			return exporttask.Task{}, false, fmt.Errorf("looking for a duplicate: %w", err)
		}
	}

	if p.Quota > 0 {
		var used int64
		err := tx.QueryRow(ctx,
			`SELECT used_bytes FROM customer_usage WHERE customer = $1`, p.Customer).Scan(&used)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return exporttask.Task{}, false, fmt.Errorf("reading storage usage: %w", err)
		}
		if remaining := p.Quota - used; p.EstimatedSize > remaining {
			return exporttask.Task{}, false, &exporttask.QuotaError{
				Quota: p.Quota, Remaining: max(remaining, 0), Requested: p.EstimatedSize}
		}
	}

	t := newTask(p)
	doc, err := encodeTask(t)
	if err != nil {
		return exporttask.Task{}, false, err
	}
	var id int64
	err = tx.QueryRow(ctx,
		`INSERT INTO tasks (customer, status, dedup_key, estimated_size, doc) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		p.Customer, string(t.Status), p.DedupKey, t.EstimatedSize, string(doc)).Scan(&id)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("inserting: %w", err)
	}
	if err := addUsage(ctx, tx, p.Customer, t.EstimatedSize); err != nil {
		return exporttask.Task{}, false, err
	}
	if err := rememberKey(ctx, tx, p, id); err != nil {
		return exporttask.Task{}, false, err
	}
	t, err = decodeTask(id, doc)
	return t, false, err
}

// mergeWebhooks adds webhooks to the existing task t, locked by the
// caller, and, when that changed it, saves it and emits TASK_UPDATED.
func mergeWebhooks(ctx context.Context, tx pgx.Tx, t exporttask.Task, webhooks []exporttask.Webhook, now time.Time) (exporttask.Task, error) {
	merged, changed := exporttask.MergeWebhooks(t.Webhook, webhooks)
	if !changed {
		return t, nil
	}
	var (
		owner string
		until int64
	)
	err := tx.QueryRow(ctx, `SELECT lease_owner, lease_until FROM tasks WHERE id = $1`, t.ID).Scan(&owner, &until)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("reading task %d: %w", t.ID, err)
	}
	t.Webhook = merged
	t, err = saveTask(ctx, tx, t.Status, t, owner, until)
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, emit(ctx, tx, t, exporttask.EventUpdated, now)
}

// rememberKey records p's Idempotency-Key, if any, as naming task id.
func rememberKey(ctx context.Context, tx pgx.Tx, p exporttask.CreateParams, id int64) error {
	if p.IdempotencyKey == "" {
		return nil
	}
	_, err := tx.Exec(ctx,
		`INSERT INTO idempotency_keys (customer, key, task_id) VALUES ($1, $2, $3)`,
		p.Customer, p.IdempotencyKey, id)
	if err != nil {
		return fmt.Errorf("recording idempotency key: %w", err)
	}
	return nil
}

// Get returns the customer's task id; see [exporttask.Store].
func (db *DB) Get(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	t, err := scanTask(db.pool.QueryRow(ctx,
		`SELECT id, doc FROM tasks WHERE id = $1 AND customer = $2`, id, customer))
	if errors.Is(err, pgx.ErrNoRows) {
		err = exporttask.ErrNotFound
	}
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: get task %d: %w", id, err)
	}
	return t, nil
}

// List returns a page of the customer's tasks, newest first; see
// [exporttask.Store].
func (db *DB) List(ctx context.Context, p exporttask.ListParams) ([]exporttask.Task, bool, error) {
	if p.Limit <= 0 {
		return []exporttask.Task{}, false, nil
	}
	var (
		q    strings.Builder
		args = []any{p.Customer}
	)
	q.WriteString(`SELECT id, doc FROM tasks WHERE customer = $1`)
	if p.Status != "" {
		args = append(args, string(p.Status))
		q.WriteString(` AND status = $` + strconv.Itoa(len(args)))
	}
	if p.Before > 0 {
		args = append(args, p.Before)
		q.WriteString(` AND id < $` + strconv.Itoa(len(args)))
	}
	args = append(args, p.Limit+1)
	q.WriteString(` ORDER BY id DESC LIMIT $` + strconv.Itoa(len(args)))

	rows, err := db.pool.Query(ctx, q.String(), args...)
	if err != nil {
		return nil, false, fmt.Errorf("postgres: list tasks: %w", err)
	}
	defer rows.Close()
	tasks := make([]exporttask.Task, 0, min(p.Limit, 100))
	more := false
	for rows.Next() {
		if len(tasks) == p.Limit {
			more = true
			break
		}
		t, err := scanTask(rows)
		if err != nil {
			return nil, false, fmt.Errorf("postgres: list tasks: %w", err)
		}
		tasks = append(tasks, t)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("postgres: list tasks: %w", err)
	}
	return tasks, more, nil
}

// Abort moves the customer's task id to ABORTED; see [exporttask.Store].
func (db *DB) Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error) {
	var t exporttask.Task
	err := db.write(ctx, func(tx pgx.Tx) error {
		var err error
		t, err = customerTask(ctx, tx, customer, id)
		if err != nil {
			return err
		}
		t, err = moveTo(ctx, tx, t, exporttask.StatusAborted, now, func(t *exporttask.Task) {
			t.FinishedAt = exporttask.NewTime(now)
		})
		return err
	})
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("postgres: abort task %d: %w", id, err)
	}
	return t, nil
}

// moveTo changes t's status to `to` through [exporttask.Transition],
// applies change, releases any lease, saves it and emits the event. An
// illegal move is an ErrConflict wrapping the *TransitionError.
func moveTo(ctx context.Context, tx pgx.Tx, t exporttask.Task, to exporttask.Status, now time.Time, change func(*exporttask.Task)) (exporttask.Task, error) {
	ev, err := exporttask.Transition(t.Status, to)
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("%w: %w", exporttask.ErrConflict, err)
	}
	before := t.Status
	t.Status = to
	if change != nil {
		change(&t)
	}
	t, err = saveTask(ctx, tx, before, t, "", 0)
	if err != nil {
		return exporttask.Task{}, err
	}
	return t, emit(ctx, tx, t, ev, now)
}
