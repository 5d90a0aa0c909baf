package storekit

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestListQuery(t *testing.T) {
	dollar := func(n int) string { return "$" + strconv.Itoa(n) }
	q, args := listQuery(taskstore.ListParams{Customer: "acme", Limit: 10}, dollar)
	assert.Equal(t, `SELECT id, doc FROM tasks WHERE customer = $1 ORDER BY id DESC LIMIT $2`, q)
	assert.Equal(t, []any{"acme", 11}, args)

	q, args = listQuery(taskstore.ListParams{Customer: "acme", Status: exporttask.StatusPending, Before: 7, Limit: 2},
		func(int) string { return "?" })
	assert.Equal(t, `SELECT id, doc FROM tasks WHERE customer = ? AND status = ? AND id < ? ORDER BY id DESC LIMIT ?`, q)
	assert.Equal(t, []any{"acme", "PENDING", int64(7), 3}, args)
}
