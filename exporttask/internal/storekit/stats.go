package storekit

import (
	"context"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Stats counts the tasks by status and the pending and given-up webhook
// deliveries, for [taskstore.Health.Stats]; the queries are the same SQL in
// both stores.
func Stats(ctx context.Context, query QueryFunc) (taskstore.Stats, error) {
	st := taskstore.Stats{Tasks: map[exporttask.Status]int64{}}
	err := countRows(ctx, query, `SELECT status, count(*) FROM tasks GROUP BY status`, func(key string, n int64) {
		st.Tasks[exporttask.Status(key)] = n
	})
	if err != nil {
		return taskstore.Stats{}, fmt.Errorf("counting tasks: %w", err)
	}
	// state: 0 pending, 2 given up (see the deliveries table).
	err = countRows(ctx, query, `SELECT CAST(state AS TEXT), count(*) FROM deliveries WHERE state IN (0, 2) GROUP BY state`,
		func(key string, n int64) {
			if key == "0" {
				st.DeliveriesPending = n
			} else {
				st.DeliveriesFailed = n
			}
		})
	if err != nil {
		return taskstore.Stats{}, fmt.Errorf("counting deliveries: %w", err)
	}
	return st, nil
}

// countRows runs q, whose rows are (key, count), and calls add for each.
func countRows(ctx context.Context, query QueryFunc, q string, add func(key string, n int64)) error {
	rows, done, err := query(ctx, q)
	if err != nil {
		return err
	}
	defer done()
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
