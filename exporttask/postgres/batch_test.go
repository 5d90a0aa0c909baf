package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func contexts(n int, ctx context.Context) []context.Context {
	out := make([]context.Context, n)
	for i := range out {
		out[i] = ctx
	}
	return out
}

func TestBatchInsertsItsCreatesTogether(t *testing.T) {
	db, conn := openWithConn(t)
	ps := []taskstore.CreateParams{deduped(t, "rec-1"), testkit.CreateParams("bob", "rec-1"), deduped(t, "rec-2")}
	ps[1].EstimatedSize = 7
	got := postgres.InsertTogether(db, contexts(len(ps), t.Context()), ps)
	for i, g := range got {
		require.NoError(t, g.Err)
		require.True(t, g.Inserted, "create %d", i)
		task, err := db.Get(t.Context(), ps[i].Customer, g.ID)
		require.NoError(t, err)
		assert.Equal(t, ps[i].Request.CatalogRecordID, task.CatalogRecordID, "each create gets its own id")
	}
	assert.Less(t, got[0].ID, got[1].ID, "ids follow the order of the batch")
	assert.Less(t, got[1].ID, got[2].ID, "ids follow the order of the batch")

	// One usage row per customer of the batch, holding the sum.
	rows, err := conn.Query(t.Context(), `SELECT customer, bytes FROM usage_changes ORDER BY customer`)
	require.NoError(t, err)
	usage, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct {
		Customer string
		Bytes    int64
	}])
	require.NoError(t, err)
	assert.Equal(t, []struct {
		Customer string
		Bytes    int64
	}{{"acme", 20 + postgres.DocBytes(ps[0]) + postgres.DocBytes(ps[2])}, {"bob", 7 + postgres.DocBytes(ps[1])}}, usage,
		"the estimates and the documents")
}

func TestBatchLeavesOutDuplicatesAndKnownKeys(t *testing.T) {
	db, _ := openWithConn(t)
	known := testkit.CreateParams("acme", "rec-known")
	known.IdempotencyKey = "key-1"
	first, _, err := db.Create(t.Context(), known)
	require.NoError(t, err)

	again := testkit.CreateParams("acme", "rec-other")
	again.IdempotencyKey = "key-1"
	ps := []taskstore.CreateParams{deduped(t, "rec-1"), deduped(t, "rec-1"), again, deduped(t, "rec-2")}
	got := postgres.InsertTogether(db, contexts(len(ps), t.Context()), ps)
	for _, g := range got {
		require.NoError(t, g.Err)
	}
	assert.True(t, got[0].Inserted)
	assert.False(t, got[1].Inserted, "the twin of an earlier create of the batch is left to the full create")
	assert.False(t, got[2].Inserted, "a known Idempotency-Key is left to the full create")
	assert.True(t, got[3].Inserted)

	// Through Create, the ones left out find what is there: the key,
	// recorded with another request.
	_, _, err = db.Create(t.Context(), again)
	var ke *taskstore.IdempotencyKeyReusedError
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, first.ID, ke.TaskID)
	task, replayed, err := db.Create(t.Context(), known)
	require.NoError(t, err)
	assert.True(t, replayed)
	assert.Equal(t, "rec-known", task.CatalogRecordID)
}

// Two creates of the batch with one new Idempotency-Key: PostgreSQL
// refuses the statement, nothing is stored, and both run on their own.
func TestBatchRefusedAsAWholeStoresNothing(t *testing.T) {
	db, conn := openWithConn(t)
	a, b := testkit.CreateParams("acme", "rec-a"), testkit.CreateParams("acme", "rec-b")
	a.IdempotencyKey, b.IdempotencyKey = "same", "same"
	got := postgres.InsertTogether(db, contexts(2, t.Context()), []taskstore.CreateParams{a, b})
	for _, g := range got {
		assert.NoError(t, g.Err)
		assert.False(t, g.Inserted)
	}
	var tasks, usage int
	require.NoError(t, conn.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM usage_changes)`).Scan(&tasks, &usage))
	assert.Zero(t, tasks)
	assert.Zero(t, usage)

	// On their own: the first stores its task, the second finds its key
	// naming that task, recorded with another request (422 from the server).
	first, replayed, err := db.Create(t.Context(), a)
	require.NoError(t, err)
	assert.False(t, replayed)
	_, _, err = db.Create(t.Context(), b)
	var ke *taskstore.IdempotencyKeyReusedError
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, taskstore.IdempotencyKeyReusedError{Key: "same", TaskID: first.ID}, *ke)
}

func TestBatchSkipsACreateWhoseContextEnded(t *testing.T) {
	db, _ := openWithConn(t)
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	got := postgres.InsertTogether(db, []context.Context{t.Context(), ended},
		[]taskstore.CreateParams{testkit.CreateParams("acme", "rec-1"), testkit.CreateParams("acme", "rec-2")})
	require.NoError(t, got[0].Err)
	assert.True(t, got[0].Inserted)
	assert.ErrorIs(t, got[1].Err, context.Canceled)
	assert.False(t, got[1].Inserted)
}

// The statement is planned once per connection (a generic plan), so its
// plan must not depend on the data: the key lookup is an index probe per
// create, even in a plan made while the tables are empty.
func TestBatchPlanProbesTheKeyIndex(t *testing.T) {
	_, conn := openWithConn(t)
	_, err := conn.Exec(t.Context(), `SET plan_cache_mode = force_generic_plan`)
	require.NoError(t, err)
	_, err = conn.Exec(t.Context(), `PREPARE batch AS `+postgres.QInsertBatch)
	require.NoError(t, err)
	rows, err := conn.Query(t.Context(),
		`EXPLAIN EXECUTE batch('{acme}', '{PENDING}', '{k}', '{1}', '{"{}"}', '{key}', '{fp}')`, pgx.QueryExecModeSimpleProtocol)
	require.NoError(t, err)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	plan := strings.Join(lines, "\n")
	assert.Contains(t, plan, "Index Only Scan using idempotency_keys_pkey", plan)
	assert.NotContains(t, plan, "Seq Scan", plan)
}

func TestCreateAfterCloseFails(t *testing.T) {
	db, err := postgres.Open(t.Context(), freshSchema(t, testDSN(t)))
	require.NoError(t, err)
	require.NoError(t, db.Close())
	_, _, err = db.Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	assert.Error(t, err)
}
