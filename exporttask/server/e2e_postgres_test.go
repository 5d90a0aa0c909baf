package server_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/client"
	"github.com/openapi-viewer/viewer/exporttask/exporttasktest"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// postgresSchema creates a schema of its own for the test in the database
// of $EXPORTTASK_TEST_POSTGRES_DSN (skipping the test when it is not set),
// drops it when the test ends, and returns a DSN that uses it: the tasks,
// queue and outbox other tests leave in that database do not reach this
// test's workers.
func postgresSchema(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("EXPORTTASK_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("EXPORTTASK_TEST_POSTGRES_DSN is not set")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "e2e_" + hex.EncodeToString(b[:])
	exec := func(sql string) error {
		conn, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		_, err = conn.Exec(context.Background(), sql)
		return err
	}
	require.NoError(t, exec("CREATE SCHEMA "+schema))
	t.Cleanup(func() {
		if err := exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(dsn)
	require.NoError(t, err, "EXPORTTASK_TEST_POSTGRES_DSN must be a postgres:// URL")
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// openPostgres opens a store on dsn, closed when the test ends.
func openPostgres(t *testing.T, dsn string) taskstore.Store {
	t.Helper()
	st, err := postgres.Open(t.Context(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// TestPostgresLifecycle is TestWebhookLifecycle on PostgreSQL.
func TestPostgresLifecycle(t *testing.T) {
	st := openPostgres(t, postgresSchema(t))
	rc := newHookReceiver()
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	h := newHarness(t, exporttasktest.WithStore(st), exporttasktest.WithTaskDuration(200*time.Millisecond))
	task := h.create(t, testkit.SampleRequestTo(int(time.Now().UnixNano()%1e9), hook.URL+"/pg"))
	done, err := h.client.Wait(t.Context(), task.ID, 50*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, exporttask.StatusCompleted, done.Status)
	assert.NotEmpty(t, done.Artifacts)
	got := rc.waitFor(t, 20*time.Second, exporttask.EventCompleted)
	require.NoError(t, got[0].verify(h.WebhookSecret, exporttasktest.Customer))
	assert.Equal(t, task.ID, got[0].payload.Data.ID)

	// Reads, paging and errors behave as on SQLite.
	tasks, _, err := h.client.List(t.Context(), client.ListOptions{Limit: 1})
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	_, err = h.client.Abort(t.Context(), task.ID)
	require.ErrorIs(t, err, client.ErrDismissed, "DELETE dismisses a completed task")
	_, err = h.client.Get(t.Context(), task.ID)
	var p *exporttask.Problem
	require.ErrorAs(t, err, &p)
	assert.Equal(t, 404, p.Status)
}

// TestPostgresReplicas runs two servers, each with its own connection pool
// and workers, on one PostgreSQL database: tasks created on either are each
// started once and completed, and every webhook is delivered once.
func TestPostgresReplicas(t *testing.T) {
	secret := []byte("replica-secret")
	rc := newHookReceiver()
	hook := httptest.NewServer(rc)
	t.Cleanup(hook.Close)
	dsn := postgresSchema(t)
	var replicas []*harness
	for range 2 {
		replicas = append(replicas, newHarness(t, exporttasktest.WithStore(openPostgres(t, dsn)),
			exporttasktest.WithTaskDuration(150*time.Millisecond), exporttasktest.WithWebhookSecret(secret),
			exporttasktest.WithWorkers(3)))
	}
	const n = 24
	base := int(time.Now().UnixNano() % 1e9)
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := testkit.SampleRequestTo(base+i, hook.URL+"/replicas")
			req.Webhook[0].Events = []exporttask.Event{exporttask.EventStarted, exporttask.EventCompleted}
			task, err := replicas[i%2].client.Create(t.Context(), req)
			if assert.NoError(t, err) {
				ids[i] = task.ID
			}
		}()
	}
	wg.Wait()
	for i, id := range ids {
		require.NotZero(t, id)
		// Either replica reads any task.
		done, err := replicas[(i+1)%2].client.Wait(t.Context(), id, 50*time.Millisecond)
		require.NoError(t, err)
		assert.Equal(t, exporttask.StatusCompleted, done.Status)
	}

	mine := make(map[int64]bool, n)
	for _, id := range ids {
		mine[id] = true
	}
	require.Eventually(t, func() bool {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		completed := 0
		for _, d := range rc.got {
			if mine[d.payload.Data.ID] && d.payload.Event == exporttask.EventCompleted {
				completed++
			}
		}
		return completed >= n
	}, 30*time.Second, 50*time.Millisecond, "every TASK_COMPLETED webhook arrives")

	rc.mu.Lock()
	defer rc.mu.Unlock()
	started := map[int64]int{}
	deliveries := map[string]int{}
	for _, d := range rc.got {
		if !mine[d.payload.Data.ID] {
			continue
		}
		require.NoError(t, d.verify(secret, exporttasktest.Customer))
		deliveries[d.id]++
		if d.payload.Event == exporttask.EventStarted {
			started[d.payload.Data.ID]++
		}
	}
	for _, id := range ids {
		assert.Equal(t, 1, started[id], "task %d started once", id)
	}
	for id, count := range deliveries {
		assert.Equal(t, 1, count, "delivery %s sent once", id)
	}
}
