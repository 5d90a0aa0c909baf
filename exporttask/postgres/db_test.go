package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Replicas starting at once on an empty schema: each migration runs once
// and every replica comes up.
func TestConcurrentOpensMigrateOnce(t *testing.T) {
	dsn := freshSchema(t, testDSN(t))
	dbs := testkit.OpenConcurrently(t, 4, func() (*postgres.DB, error) { return postgres.Open(t.Context(), dsn) })

	task, _, err := dbs[0].Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	require.NoError(t, err)
	got, err := dbs[3].Get(t.Context(), "acme", task.ID)
	require.NoError(t, err)
	assert.Equal(t, task, got)

	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var versions int
	require.NoError(t, conn.QueryRow(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&versions))
	assert.Equal(t, testkit.MigrationFiles(t, "migrations"), versions, "each migration is recorded once")

	// Opening again applies nothing and keeps the data.
	again, err := postgres.Open(t.Context(), dsn)
	require.NoError(t, err)
	defer again.Close()
	got, err = again.Get(t.Context(), "acme", task.ID)
	require.NoError(t, err)
	assert.Equal(t, task, got)
}

func TestOpenErrors(t *testing.T) {
	_, err := postgres.Open(t.Context(), "postgres://user:secret@127.0.0.1:notaport/db")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "secret", "the password never reaches an error")

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err = postgres.Open(ctx, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2")
	assert.ErrorContains(t, err, "postgres: open")
}

func TestErrorsSayWhere(t *testing.T) {
	db, err := postgres.Open(t.Context(), freshSchema(t, testDSN(t)))
	require.NoError(t, err)
	_, err = db.Get(t.Context(), "acme", 7)
	assert.EqualError(t, err, "postgres: get task 7: "+taskstore.ErrNotFound.Error())

	require.NoError(t, db.Close())
	_, _, err = db.Create(t.Context(), testkit.CreateParams("acme", "rec-1"))
	assert.ErrorContains(t, err, "postgres: create task:", "a closed store fails, without panicking")
	assert.Error(t, db.Ping(t.Context()))
}
