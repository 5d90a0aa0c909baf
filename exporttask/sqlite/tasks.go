package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Create stores a new PENDING task unless the Idempotency-Key or the dedup
// key names an existing one; see [exporttask.Store].
func (db *DB) Create(ctx context.Context, p exporttask.CreateParams) (exporttask.Task, bool, error) {
	var (
		t        exporttask.Task
		replayed bool
	)
	err := db.write(ctx, func(tx wtx) error {
		var err error
		t, replayed, err = create(ctx, tx, p)
		return err
	})
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("sqlite: create task: %w", err)
	}
	return t, replayed, nil
}

func create(ctx context.Context, tx wtx, p exporttask.CreateParams) (exporttask.Task, bool, error) {
	if p.IdempotencyKey != "" {
		var id int64
		err := tx.queryRow(ctx, qIdempotencyKey,
			p.Customer, p.IdempotencyKey).Scan(&id)
		if err == nil {
			t, err := customerTask(ctx, tx, p.Customer, id)
			return t, true, err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return exporttask.Task{}, false, fmt.Errorf("reading idempotency key: %w", err)
		}
	}

	if p.DedupKey != "" {
		t, err := scanTask(tx.queryRow(ctx, qDuplicate,
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
		case !errors.Is(err, sql.ErrNoRows):
			return exporttask.Task{}, false, fmt.Errorf("looking for a duplicate: %w", err)
		}
	}

	if p.Quota > 0 {
		var used int64
		err := tx.queryRow(ctx, qUsage, p.Customer).Scan(&used)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
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
	res, err := tx.exec(ctx, qInsertTask,
		p.Customer, t.Status, p.DedupKey, t.EstimatedSize, doc)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("inserting: %w", err)
	}
	id, err := res.LastInsertId()
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

// mergeWebhooks adds webhooks to the existing task t and, when that
// changed it, saves it and emits TASK_UPDATED.
func mergeWebhooks(ctx context.Context, tx wtx, t exporttask.Task, webhooks []exporttask.Webhook, now time.Time) (exporttask.Task, error) {
	merged, changed := exporttask.MergeWebhooks(t.Webhook, webhooks)
	if !changed {
		return t, nil
	}
	var (
		owner string
		until int64
	)
	err := tx.queryRow(ctx, qLease, t.ID).Scan(&owner, &until)
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
func rememberKey(ctx context.Context, tx wtx, p exporttask.CreateParams, id int64) error {
	if p.IdempotencyKey == "" {
		return nil
	}
	_, err := tx.exec(ctx, qRememberKey,
		p.Customer, p.IdempotencyKey, id)
	if err != nil {
		return fmt.Errorf("recording idempotency key: %w", err)
	}
	return nil
}

// Get returns the customer's task id; see [exporttask.Store].
func (db *DB) Get(ctx context.Context, customer string, id int64) (exporttask.Task, error) {
	t, err := scanTask(db.get.QueryRowContext(ctx, id, customer))
	if errors.Is(err, sql.ErrNoRows) {
		err = exporttask.ErrNotFound
	}
	if err != nil {
		return exporttask.Task{}, fmt.Errorf("sqlite: get task %d: %w", id, err)
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
	q.WriteString(`SELECT id, doc FROM tasks WHERE customer = ?`)
	if p.Status != "" {
		q.WriteString(` AND status = ?`)
		args = append(args, p.Status)
	}
	if p.Before > 0 {
		q.WriteString(` AND id < ?`)
		args = append(args, p.Before)
	}
	q.WriteString(` ORDER BY id DESC LIMIT ?`)
	args = append(args, p.Limit+1)

	rows, err := db.r.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, false, fmt.Errorf("sqlite: list tasks: %w", err)
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
			return nil, false, fmt.Errorf("sqlite: list tasks: %w", err)
		}
		tasks = append(tasks, t)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("sqlite: list tasks: %w", err)
	}
	return tasks, more, nil
}

// Abort moves the customer's task id to ABORTED; see [exporttask.Store].
func (db *DB) Abort(ctx context.Context, customer string, id int64, now time.Time) (exporttask.Task, error) {
	var t exporttask.Task
	err := db.write(ctx, func(tx wtx) error {
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
		return exporttask.Task{}, fmt.Errorf("sqlite: abort task %d: %w", id, err)
	}
	return t, nil
}

// moveTo changes t's status to `to` through [exporttask.Transition],
// applies change, releases any lease, saves it and emits the event. An
// illegal move is an ErrConflict wrapping the *TransitionError.
func moveTo(ctx context.Context, tx wtx, t exporttask.Task, to exporttask.Status, now time.Time, change func(*exporttask.Task)) (exporttask.Task, error) {
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
