package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestConformanceFile(t *testing.T) {
	storetest.Run(t, func(t *testing.T) taskstore.Store {
		db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "tasks.db"))
		require.NoError(t, err)
		return db
	})
}

func TestConformanceMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) taskstore.Store {
		db, err := sqlite.Open(t.Context(), sqlite.Memory)
		require.NoError(t, err)
		return db
	})
}

func TestConformanceShared(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) []taskstore.Store {
		path := filepath.Join(t.TempDir(), "tasks.db")
		var ss []taskstore.Store
		for range 3 {
			db, err := sqlite.Open(t.Context(), path)
			require.NoError(t, err)
			ss = append(ss, db)
		}
		return ss
	})
}
