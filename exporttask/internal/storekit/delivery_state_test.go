package storekit_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// TestStateColumn: the state column holds 0 for pending (the stores' SQL
// reads state = 0 as pending), 1 for delivered, 2 for given up, and reads
// back as the same state.
func TestStateColumn(t *testing.T) {
	for state, column := range map[taskstore.DeliveryState]int{
		taskstore.DeliveryPending: 0, taskstore.DeliveryDelivered: 1, taskstore.DeliveryGivenUp: 2,
	} {
		assert.Equal(t, column, storekit.StateColumn(state), state)
		assert.Equal(t, state, storekit.StateOfColumn(column), column)
	}
}
