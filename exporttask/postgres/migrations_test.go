package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestMigrationGivesDeliveriesTheirResults: migration 0008 fills the
// status code and class of the deliveries written before it from their
// error text.
func TestMigrationGivesDeliveriesTheirResults(t *testing.T) {
	dsn := freshSchema(t, testDSN(t))
	conn, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	testkit.CheckDeliveryResultsMigration(t, 8, func() taskstore.Store {
		db, err := postgres.Open(t.Context(), dsn)
		require.NoError(t, err)
		return db
	}, func(statement string) {
		_, err := conn.Exec(t.Context(), statement)
		require.NoError(t, err, statement)
	})
}
