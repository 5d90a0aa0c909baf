package sqlite

import (
	"context"
	"database/sql/driver"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestMemoryOutlivesADiscardedConnection: database/sql closes a connection
// that reports itself bad (as after an interrupted statement) and opens a
// new one. The in-memory database must still be there, tables and tasks
// included, on the new connection.
func TestMemoryOutlivesADiscardedConnection(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Memory)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, db.Close()) })

	_, err = db.Get(ctx, "acme", 1)
	require.ErrorIs(t, err, taskstore.ErrNotFound, "the schema is there")

	conn, err := db.w.Conn(ctx)
	require.NoError(t, err)
	err = conn.Raw(func(any) error { return driver.ErrBadConn })
	require.ErrorIs(t, err, driver.ErrBadConn)
	_ = conn.Close() // database/sql has closed it already

	_, err = db.Get(ctx, "acme", 1)
	assert.ErrorIs(t, err, taskstore.ErrNotFound, "the schema survived the discarded connection")

	other, err := Open(ctx, Memory)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, other.Close()) })
	assert.NotSame(t, db.anchor, other.anchor)
}
