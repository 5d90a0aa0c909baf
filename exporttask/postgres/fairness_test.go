package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/storetest"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

func TestMaxRunning(t *testing.T) {
	dsn := testDSN(t)
	storetest.RunMaxRunning(t, func(t *testing.T, n int) []taskstore.Store {
		schema := freshSchema(t, dsn)
		var ss []taskstore.Store
		for range 3 {
			db, err := postgres.Open(t.Context(), schema, postgres.WithMaxRunningPerCustomer(n))
			require.NoError(t, err)
			ss = append(ss, db)
		}
		return ss
	})
}

func TestNegativeMaxRunningIsRefused(t *testing.T) {
	_, err := postgres.Open(t.Context(), "postgres://127.0.0.1:1/none", postgres.WithMaxRunningPerCustomer(-1))
	require.ErrorContains(t, err, "most running tasks per customer must not be negative, got -1")
}
