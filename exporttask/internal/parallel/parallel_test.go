package parallel_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask/internal/parallel"
)

// TestRunReleasesAllAtOnce: every goroutine waits for the release, so all
// n are running before any returns; errors come back at their index.
func TestRunReleasesAllAtOnce(t *testing.T) {
	const n = 8
	var started atomic.Int32
	barrier := make(chan struct{})
	errs := parallel.Run(n, func(i int) error {
		if started.Add(1) == n {
			close(barrier)
		}
		<-barrier // a goroutine that ran alone would wait here forever
		if i%2 == 1 {
			return errors.New("odd")
		}
		return nil
	})
	for i, err := range errs {
		if i%2 == 1 {
			assert.EqualError(t, err, "odd", "index %d", i)
		} else {
			assert.NoError(t, err, "index %d", i)
		}
	}
}
