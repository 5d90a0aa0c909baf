package postgres_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// created is the outcome of a create run on another goroutine.
type created struct {
	task exporttask.Task
	err  error
}

// holdCreate starts a create of p that stops before its commit, waits
// until it got there, and returns the function that lets it commit and
// returns its outcome.
func holdCreate(t *testing.T, db *postgres.DB, p taskstore.CreateParams) func() created {
	t.Helper()
	inside, release, done := make(chan struct{}), make(chan struct{}), make(chan created, 1)
	go func() {
		task, _, err := postgres.CreateHeld(context.Background(), db, p, inside, release)
		done <- created{task, err}
	}()
	select {
	case <-inside:
	case c := <-done:
		require.NoError(t, c.err, "the held create ended early")
		t.Fatal("the held create ended before its commit")
	}
	var once sync.Once
	// Should the test fail before letting it commit, the create still
	// ends, so the pool can close.
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	return func() created {
		once.Do(func() { close(release) })
		return <-done
	}
}

// Without a quota, a create of a customer commits while another create of
// the same customer is in flight (holding whatever it holds until its
// commit): nothing serialises them.
func TestCreateNotSerialisedWithoutQuota(t *testing.T) {
	db, err := postgres.Open(t.Context(), freshSchema(t, testDSN(t)))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() }) // after the held create's clean-up

	// A task to merge a duplicate into, later.
	dup := deduped(t, "rec-0")
	existing, _, err := db.Create(t.Context(), dup)
	require.NoError(t, err)

	finish := holdCreate(t, db, deduped(t, "rec-1"))
	// Were creates serialised, these would wait for the held one forever:
	// the deadline turns that into a failure.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	// A new task (the one-statement create).
	second, replayed, err := db.Create(ctx, deduped(t, "rec-2"))
	require.NoError(t, err, "a create of the same customer ran while another was in flight")
	assert.False(t, replayed)
	// A duplicate whose webhook merges into the existing task (the full
	// create, in a transaction).
	dup.Request.Webhook = []exporttask.Webhook{{URL: "https://hooks.example.com/late",
		Events: []exporttask.Event{exporttask.EventCompleted}}}
	merged, replayed, err := db.Create(ctx, dup)
	require.NoError(t, err, "a duplicate of the same customer merged while another create was in flight")
	assert.True(t, replayed)
	assert.Equal(t, existing.ID, merged.ID)
	assert.Len(t, merged.Webhook, 1)

	first := finish()
	require.NoError(t, first.err)
	assert.NotEqual(t, first.task.ID, second.ID)
	list, _, err := db.List(t.Context(), taskstore.ListParams{Customer: "acme", Limit: 10})
	require.NoError(t, err)
	assert.Len(t, list, 3)
}

// deduped is a create of record by acme, without a quota, with its
// identity (dedup key and fingerprint).
func deduped(t *testing.T, record string) taskstore.CreateParams {
	p := testkit.CreateParams("acme", record)
	id, err := taskstore.Identify(p.Request, "")
	require.NoError(t, err)
	p.Identity = id
	return p
}

// With a quota, creates of one customer run one at a time: the second
// waits for the customer's lock until the first commits, and then counts
// it.
func TestCreateSerialisedWithQuota(t *testing.T) {
	dsn := freshSchema(t, testDSN(t))
	db, err := postgres.Open(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() }) // after the held create's clean-up

	p := testkit.CreateParams("acme", "rec-1")
	p.EstimatedSize = 600
	p.Quota = 1000 + postgres.DocBytes(p)
	finish := holdCreate(t, db, p)

	q := testkit.CreateParams("acme", "rec-2")
	q.EstimatedSize, q.Quota = 600, p.Quota
	done := make(chan created, 1)
	go func() {
		task, _, err := db.Create(context.Background(), q)
		done <- created{task, err}
	}()

	// Wait until the second create waits for a lock.
	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	deadline := time.Now().Add(30 * time.Second)
	for {
		var waiting int
		require.NoError(t, conn.QueryRow(t.Context(),
			`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&waiting))
		if waiting > 0 {
			break
		}
		select {
		case c := <-done:
			t.Fatalf("the second create ended (%v) while the first held the customer's lock", c.err)
		default:
		}
		require.True(t, time.Now().Before(deadline), "the second create never waited for the customer's lock")
		runtime.Gosched()
	}

	first := finish()
	require.NoError(t, first.err)
	second := <-done
	var qe *taskstore.QuotaError
	require.ErrorAs(t, second.err, &qe, "the second create sees the first's 600 bytes")
	assert.Equal(t, int64(400), qe.Remaining)
}
