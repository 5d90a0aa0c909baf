package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Create stores a new PENDING task unless the Idempotency-Key or the dedup
// key names an existing one; see [taskstore.Store].
func (db *DB) Create(ctx context.Context, p taskstore.CreateParams) (exporttask.Task, bool, error) {
	t, replayed, err := storekit.Create(ctx, db.write, p)
	if err != nil {
		return exporttask.Task{}, false, fmt.Errorf("sqlite: create task: %w", err)
	}
	return t, replayed, nil
}

// LookUp reads what decides a create, stopping at the first finding that
// decides it: the task named by the Idempotency-Key, an equivalent live
// task, the storage in use. The write transaction, one at a time, keeps
// it true until the insert.
func (w wtx) LookUp(ctx context.Context, p taskstore.CreateParams) (storekit.Existing, error) {
	var found storekit.Existing
	if p.IdempotencyKey != "" {
		err := w.queryRow(ctx, qIdempotencyKey, p.Customer, p.IdempotencyKey).Scan(&found.KeyTask, &found.KeyFingerprint)
		if err == nil {
			return found, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return storekit.Existing{}, fmt.Errorf("reading idempotency key: %w", err)
		}
	}
	if p.Identity.Dedup != "" {
		t, err := storekit.ScanTask(w.queryRow(ctx, qDuplicate, p.Customer, p.Identity.Dedup, storekit.Millis(p.Now)))
		if err == nil {
			found.Duplicate = &t
			return found, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return storekit.Existing{}, fmt.Errorf("looking for a duplicate: %w", err)
		}
	}
	if p.Quota > 0 {
		err := w.queryRow(ctx, qUsage, p.Customer).Scan(&found.Used)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return storekit.Existing{}, fmt.Errorf("reading storage usage: %w", err)
		}
	}
	return found, nil
}

// InsertTask stores the new task t, counts its size and its document's in
// the customer's usage and records its Idempotency-Key, if any, with the
// request's fingerprint (p.Identity.Fingerprint).
func (w wtx) InsertTask(ctx context.Context, p taskstore.CreateParams, t exporttask.Task, doc []byte) (int64, error) {
	res, err := w.exec(ctx, qInsertTask, p.Customer, t.Status, p.Identity.Dedup, t.EstimatedSize, doc, len(doc))
	if err != nil {
		return 0, fmt.Errorf("inserting: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("inserting: %w", err)
	}
	if err := w.AddUsage(ctx, p.Customer, t.EstimatedSize+int64(len(doc))); err != nil {
		return 0, err
	}
	if p.IdempotencyKey != "" {
		if err := w.RememberKey(ctx, p.Customer, p.IdempotencyKey, p.Identity.Fingerprint, id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// RememberKey records the customer's Idempotency-Key, with the request's
// fingerprint fp, as naming task id.
func (w wtx) RememberKey(ctx context.Context, customer, key, fp string, id int64) error {
	if _, err := w.exec(ctx, qRememberKey, customer, key, fp, id); err != nil {
		return fmt.Errorf("recording idempotency key: %w", err)
	}
	return nil
}
