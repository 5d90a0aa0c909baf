package storekit

import (
	"context"
	"errors"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// QueryFunc runs a read query of a store, outside any write transaction.
// done closes rows.
type QueryFunc func(ctx context.Context, q string, args ...any) (rows Rows, done func(), err error)

// List carries out [taskstore.Tasks.List] with query. placeholder returns
// the store's SQL for the n-th query parameter (from 1).
func List(ctx context.Context, p taskstore.ListParams, placeholder func(n int) string, query QueryFunc) (tasks []exporttask.Task, more bool, err error) {
	if p.Limit <= 0 {
		return []exporttask.Task{}, false, nil
	}
	q, args := listQuery(p, placeholder)
	rows, done, err := query(ctx, q, args...)
	if err != nil {
		return nil, false, err
	}
	defer done()
	return Page(rows, p.Limit)
}

// listQuery returns the SQL and arguments that select p's page of tasks
// (id, doc), one task more than p.Limit to tell whether more follow.
func listQuery(p taskstore.ListParams, placeholder func(n int) string) (string, []any) {
	var (
		q    strings.Builder
		args []any
	)
	arg := func(v any) string {
		args = append(args, v)
		return placeholder(len(args))
	}
	q.WriteString(`SELECT id, doc FROM tasks WHERE customer = ` + arg(p.Customer))
	if p.Status != "" {
		q.WriteString(` AND status = ` + arg(string(p.Status)))
	}
	if p.Before > 0 {
		q.WriteString(` AND id < ` + arg(p.Before))
	}
	q.WriteString(` ORDER BY id DESC LIMIT ` + arg(p.Limit+1))
	return q.String(), args
}

// ScanFound reads a row of (id, doc) like [ScanTask], returning
// taskstore.ErrNotFound when the driver said noRows (its error for a
// query that matched no row).
func ScanFound(row Scanner, noRows error) (exporttask.Task, error) {
	t, err := ScanTask(row)
	if errors.Is(err, noRows) {
		return exporttask.Task{}, taskstore.ErrNotFound
	}
	return t, err
}
