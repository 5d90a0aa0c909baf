package sqlite_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestMigrationGivesDeliveriesTheirResults: migration 0007 fills the
// status code and class of the deliveries written before it from their
// error text.
func TestMigrationGivesDeliveriesTheirResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tasks.db")
	testkit.CheckDeliveryResultsMigration(t, 7, func() taskstore.Store {
		db, err := sqlite.Open(t.Context(), path)
		require.NoError(t, err)
		return db
	}, func(statement string) {
		raw, err := sql.Open("sqlite", path)
		require.NoError(t, err)
		defer raw.Close()
		_, err = raw.Exec(statement)
		require.NoError(t, err, statement)
	})
}
