package storekit

import (
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Scanner is one result row: *sql.Row, *sql.Rows, pgx.Row and pgx.Rows
// all have this method.
type Scanner interface {
	Scan(dest ...any) error
}

// Rows is a result set being read: *sql.Rows and pgx.Rows both are. The
// caller closes it.
type Rows interface {
	Scanner
	Next() bool
	Err() error
}

// ScanTask reads a row of (id, doc).
func ScanTask(row Scanner) (exporttask.Task, error) {
	var (
		id  int64
		doc []byte
	)
	if err := row.Scan(&id, &doc); err != nil {
		return exporttask.Task{}, err
	}
	return DecodeTask(id, doc)
}

// ScanDelivery reads a row of (id, task_id, url, event, attempts, payload,
// created_at, host) of the deliveries table, then the customer of its task.
func ScanDelivery(row Scanner) (taskstore.Delivery, error) {
	var (
		d       taskstore.Delivery
		created int64
	)
	if err := row.Scan(&d.ID, &d.TaskID, &d.URL, &d.Event, &d.Attempts, &d.Payload, &created, &d.Host, &d.Customer); err != nil {
		return taskstore.Delivery{}, err
	}
	d.CreatedAt = time.UnixMilli(created).UTC()
	return d, nil
}

// Collect reads every remaining row of rows with scan.
func Collect[T any](rows Rows, scan func(Scanner) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Page reads the tasks of a List query that asked for limit+1 rows (id,
// doc): at most limit tasks, and whether there were more.
func Page(rows Rows, limit int) (tasks []exporttask.Task, more bool, err error) {
	tasks = make([]exporttask.Task, 0, min(limit, 100))
	for rows.Next() {
		if len(tasks) == limit {
			more = true
			break
		}
		t, err := ScanTask(rows)
		if err != nil {
			return nil, false, err
		}
		tasks = append(tasks, t)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return tasks, more, nil
}
