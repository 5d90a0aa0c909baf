package storekit_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// taskRows is a result set of (id, doc) rows, failing with err at its end.
type taskRows struct {
	docs []string
	i    int
	err  error
}

func (r *taskRows) Next() bool { r.i++; return r.i <= len(r.docs) }
func (r *taskRows) Err() error { return r.err }

func (r *taskRows) Scan(dest ...any) error {
	*dest[0].(*int64) = int64(r.i)
	*dest[1].(*[]byte) = []byte(r.docs[r.i-1])
	return nil
}

func TestPage(t *testing.T) {
	doc := `{"status":"PENDING"}`
	tasks, more, err := storekit.Page(&taskRows{docs: []string{doc, doc, doc}}, 2)
	require.NoError(t, err)
	assert.True(t, more)
	require.Len(t, tasks, 2)
	assert.Equal(t, int64(2), tasks[1].ID)

	tasks, more, err = storekit.Page(&taskRows{docs: []string{doc}}, 2)
	require.NoError(t, err)
	assert.False(t, more)
	assert.Len(t, tasks, 1)

	_, _, err = storekit.Page(&taskRows{docs: []string{doc, "{"}}, 2)
	assert.ErrorContains(t, err, "decoding task 2")

	broken := errors.New("connection reset")
	_, _, err = storekit.Page(&taskRows{err: broken}, 2)
	assert.ErrorIs(t, err, broken)
}

func TestCollect(t *testing.T) {
	doc := `{"status":"COMPLETED"}`
	tasks, err := storekit.Collect(&taskRows{docs: []string{doc, doc}}, storekit.ScanTask)
	require.NoError(t, err)
	assert.Len(t, tasks, 2)

	tasks, err = storekit.Collect(&taskRows{}, storekit.ScanTask)
	require.NoError(t, err)
	assert.Nil(t, tasks)
}
