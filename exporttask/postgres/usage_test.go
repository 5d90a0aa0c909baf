package postgres_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// The usage ledger stays short: creates fold it, and the folded sum is
// the customer's usage.
func TestUsageLedgerFolds(t *testing.T) {
	db, conn := openWithConn(t)
	rows := func() (n, sum int64) {
		require.NoError(t, conn.QueryRow(t.Context(),
			`SELECT count(*), coalesce(sum(bytes), 0)::bigint FROM usage_changes WHERE customer = 'acme'`).Scan(&n, &sum))
		return n, sum
	}

	const tasks = 200
	var want int64
	for i := range tasks {
		p := testkit.CreateParams("acme", fmt.Sprintf("rec-%d", i)) // 10 bytes each, and the document
		want += 10 + postgres.DocBytes(p)
		_, _, err := db.Create(t.Context(), p)
		require.NoError(t, err)
	}
	n, sum := rows()
	assert.Equal(t, want, sum, "the ledger adds up to every task's size and document")
	assert.Less(t, n, int64(tasks), "creates without a quota folded the ledger now and then")

	p := testkit.CreateParams("acme", "rec-quota")
	p.Quota = want + 5
	_, _, err := db.Create(t.Context(), p)
	var qe *taskstore.QuotaError
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, int64(5), qe.Remaining)
	n, sum = rows()
	assert.LessOrEqual(t, n, int64(65), "the ledger stays short")
	assert.Equal(t, want, sum)
}
