package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// testStats checks Stats: tasks by status of every customer, pending
// and given-up deliveries.
func testStats(t *testing.T, s taskstore.Store) {
	sr := s
	st, err := sr.Stats(ctx(t))
	require.NoError(t, err)
	assert.Empty(t, st.Tasks)
	assert.Zero(t, st.DeliveriesPending)

	create(t, s, params(t, acme, request("rec-1", hook(hookA, exporttask.EventAborted)), at(0)))
	b := create(t, s, params(t, acme, request("rec-2", hook(hookA, exporttask.EventAborted)), at(0)))
	c := create(t, s, params(t, globex, request("rec-3", hook(hookB, exporttask.EventAborted)), at(0)))
	for _, task := range []struct {
		customer string
		id       int64
	}{{acme, b.ID}, {globex, c.ID}} {
		_, err := s.Abort(ctx(t), task.customer, task.id, at(time.Second))
		require.NoError(t, err)
	}
	ds := claimDeliveries(t, s, at(2*time.Second), 10)
	require.Len(t, ds, 2, "one TASK_ABORTED per aborted task")
	require.NoError(t, s.DeliveryDone(ctx(t), ds[0].ID, taskstore.DeliveryResult{Error: "gone"})) // given up

	st, err = sr.Stats(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, map[exporttask.Status]int64{exporttask.StatusPending: 1, exporttask.StatusAborted: 2}, st.Tasks)
	assert.EqualValues(t, 1, st.DeliveriesPending)
	assert.EqualValues(t, 1, st.DeliveriesFailed)
}
