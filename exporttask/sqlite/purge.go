package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// vacuumStep is how many free pages one write transaction of reclaim gives
// back to the file system (4 MiB with SQLite's default 4 KiB pages): the
// other writes wait for one step at most, not for the whole reclaim.
const vacuumStep = 1024

// Purge removes up to limit final tasks whose retention is over, then
// gives the free pages of the file back to the file system (see reclaim);
// see [taskstore.Store].
func (db *DB) Purge(ctx context.Context, before time.Time, limit int) ([]int64, error) {
	ids, err := storekit.Purge(ctx, db.write, before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: purge final tasks: %w", err)
	}
	if err := db.reclaim(ctx); err != nil {
		return ids, fmt.Errorf("sqlite: purge final tasks: %w", err)
	}
	return ids, nil
}

// reclaim truncates the database file by its free pages (those that
// deleted rows left, by Purge, Dismiss or the pruning of deliveries), in
// steps of vacuumStep pages, each its own write transaction: PRAGMA
// incremental_vacuum, which needs auto_vacuum = INCREMENTAL (see
// [Open]), then writes the WAL back to the file (a passive checkpoint),
// which is when the file shrinks. It does nothing in memory, and stops
// when ctx ends.
func (db *DB) reclaim(ctx context.Context) error {
	if db.anchor != nil {
		return nil
	}
	for ctx.Err() == nil {
		var free int64
		err := db.begin(ctx, func(tx *sql.Tx) error {
			c := context.WithoutCancel(ctx)
			if err := tx.QueryRowContext(c, `PRAGMA freelist_count`).Scan(&free); err != nil || free == 0 {
				return err
			}
			// Each step of the statement frees one page: step it to the end.
			rows, err := tx.QueryContext(c, fmt.Sprintf(`PRAGMA incremental_vacuum(%d)`, vacuumStep))
			if err != nil {
				return err
			}
			for rows.Next() {
			}
			if err := rows.Err(); err != nil {
				rows.Close()
				return err
			}
			return rows.Close()
		})
		if err != nil {
			return fmt.Errorf("giving free pages back: %w", err)
		}
		if free <= vacuumStep {
			break
		}
	}
	// In WAL mode the file shrinks when the WAL is written back to it: do
	// it now rather than at the next automatic checkpoint. PASSIVE waits
	// for no reader; what readers still use is written back later.
	if _, err := db.w.ExecContext(context.WithoutCancel(ctx), `PRAGMA wal_checkpoint(PASSIVE)`); err != nil {
		return fmt.Errorf("writing the WAL back to the file: %w", err)
	}
	return nil
}
