package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
)

var _ exporttask.StatsReader = (*DB)(nil)

// Stats counts the tasks by status and the pending and given-up webhook
// deliveries; see [exporttask.StatsReader].
func (db *DB) Stats(ctx context.Context) (exporttask.StoreStats, error) {
	st := exporttask.StoreStats{Tasks: map[exporttask.Status]int64{}}
	err := db.countRows(ctx, `SELECT status, count(*) FROM tasks GROUP BY status`, func(key string, n int64) {
		st.Tasks[exporttask.Status(key)] = n
	})
	if err != nil {
		return exporttask.StoreStats{}, fmt.Errorf("sqlite: counting tasks: %w", err)
	}
	// state: 0 pending, 2 given up (see the deliveries table).
	err = db.countRows(ctx, `SELECT CAST(state AS TEXT), count(*) FROM deliveries WHERE state IN (0, 2) GROUP BY state`,
		func(key string, n int64) {
			if key == "0" {
				st.DeliveriesPending = n
			} else {
				st.DeliveriesFailed = n
			}
		})
	if err != nil {
		return exporttask.StoreStats{}, fmt.Errorf("sqlite: counting deliveries: %w", err)
	}
	return st, nil
}

// countRows runs q, whose rows are (key, count), and calls add for each.
func (db *DB) countRows(ctx context.Context, q string, add func(key string, n int64)) error {
	rows, err := db.r.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	return scanCounts(rows, add)
}

func scanCounts(rows *sql.Rows, add func(string, int64)) error {
	defer rows.Close()
	for rows.Next() {
		var key string
		var n int64
		if err := rows.Scan(&key, &n); err != nil {
			return err
		}
		add(key, n)
	}
	return rows.Err()
}
