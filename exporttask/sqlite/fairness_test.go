package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestMaxRunningFile(t *testing.T) {
	storetest.RunMaxRunning(t, func(t *testing.T, n int) []taskstore.Store {
		path := filepath.Join(t.TempDir(), "tasks.db")
		var ss []taskstore.Store
		for range 3 {
			db, err := sqlite.Open(t.Context(), path, sqlite.WithMaxRunningPerCustomer(n))
			require.NoError(t, err)
			ss = append(ss, db)
		}
		return ss
	})
}

func TestMaxRunningMemory(t *testing.T) {
	storetest.RunMaxRunning(t, func(t *testing.T, n int) []taskstore.Store {
		db, err := sqlite.Open(t.Context(), sqlite.Memory, sqlite.WithMaxRunningPerCustomer(n))
		require.NoError(t, err)
		return []taskstore.Store{db}
	})
}

func TestNegativeMaxRunningIsRefused(t *testing.T) {
	_, err := sqlite.Open(t.Context(), sqlite.Memory, sqlite.WithMaxRunningPerCustomer(-1))
	require.ErrorContains(t, err, "most running tasks per customer must not be negative, got -1")
}
