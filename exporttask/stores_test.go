package exporttask_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// storeImpls lists the stores the lifecycle tests run against: the real
// SQLite store, in memory, and the small in-memory fake of memstore_test.go.
func storeImpls() []storeImpl {
	return []storeImpl{
		{"sqlite", func(t *testing.T) exporttask.Store {
			db, err := sqlite.Open(context.Background(), sqlite.Memory)
			require.NoError(t, err)
			t.Cleanup(func() { assert.NoError(t, db.Close()) })
			return db
		}},
		{"mem", func(t *testing.T) exporttask.Store { return newMemStore() }},
	}
}
