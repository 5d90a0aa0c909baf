package storekit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// recorder is a run function that records its batches; a call of a
// negative number holds its batch until release is closed.
type recorder struct {
	mu      sync.Mutex
	batches [][]int
	running chan struct{} // receives when a held batch starts
	release chan struct{}
}

func newRecorder() *recorder {
	return &recorder{running: make(chan struct{}, 4), release: make(chan struct{})}
}

func (r *recorder) run(batch []*storekit.Call[int]) {
	var got []int
	for _, c := range batch {
		got = append(got, c.Arg)
	}
	r.mu.Lock()
	r.batches = append(r.batches, got)
	r.mu.Unlock()
	for _, c := range batch {
		if c.Arg < 0 {
			r.running <- struct{}{}
			<-r.release
		}
	}
	for _, c := range batch {
		c.Finish(nil)
	}
}

func (r *recorder) seen() [][]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]int(nil), r.batches...)
}

// hold calls b.Do(arg) (arg negative) in the background and returns once
// its batch runs, held until r.release is closed; the channel receives
// the call's outcome.
func hold(t *testing.T, b *storekit.Batcher[int], r *recorder, arg int) <-chan error {
	t.Helper()
	out := make(chan error, 1)
	go func() { out <- b.Do(t.Context(), arg) }()
	<-r.running
	return out
}

// queue calls b.Do(arg) in the background and returns once n calls wait.
func queue(t *testing.T, b *storekit.Batcher[int], ctx context.Context, arg, n int) <-chan error {
	t.Helper()
	out := make(chan error, 1)
	go func() { out <- b.Do(ctx, arg) }()
	require.Eventually(t, func() bool { return b.Queued() == n }, 10*time.Second, time.Millisecond)
	return out
}

func TestBatcherGroupsWhatQueuesMeanwhileInOrderUpToMax(t *testing.T) {
	r := newRecorder()
	b := storekit.NewBatcher(1, 3, r.run)
	t.Cleanup(b.Close)
	held := hold(t, b, r, -1)
	var outs []<-chan error
	for i := 1; i <= 5; i++ {
		outs = append(outs, queue(t, b, t.Context(), i, i))
	}
	close(r.release)
	require.NoError(t, <-held)
	for _, o := range outs {
		assert.NoError(t, <-o)
	}
	assert.Equal(t, [][]int{{-1}, {1, 2, 3}, {4, 5}}, r.seen())
}

func TestBatcherLanesRunBatchesSideBySide(t *testing.T) {
	r := newRecorder()
	b := storekit.NewBatcher(2, 8, r.run)
	t.Cleanup(b.Close)
	first := hold(t, b, r, -1)
	// The first lane is held; the second takes the next call at once.
	assert.NoError(t, b.Do(t.Context(), 7))
	close(r.release)
	assert.NoError(t, <-first)
	assert.Equal(t, [][]int{{-1}, {7}}, r.seen())
}

func TestBatcherDropsACallCancelledWhileQueued(t *testing.T) {
	r := newRecorder()
	b := storekit.NewBatcher(1, 8, r.run)
	t.Cleanup(b.Close)
	held := hold(t, b, r, -1)
	ctx, cancel := context.WithCancel(t.Context())
	cancelled := queue(t, b, ctx, 1, 1)
	kept := queue(t, b, t.Context(), 2, 2)
	cancel()
	assert.ErrorIs(t, <-cancelled, context.Canceled)
	assert.Equal(t, 1, b.Queued(), "the cancelled call left the queue")
	close(r.release)
	require.NoError(t, <-held)
	assert.NoError(t, <-kept)
	assert.Equal(t, [][]int{{-1}, {2}}, r.seen(), "a call cancelled before its turn never runs")
}

func TestBatcherCloseRunsQueuedCallsAndRefusesNewOnes(t *testing.T) {
	r := newRecorder()
	b := storekit.NewBatcher(2, 8, r.run)
	held := hold(t, b, r, -1)
	held2 := hold(t, b, r, -2)
	queued := queue(t, b, t.Context(), 3, 1)

	closed := make(chan struct{})
	go func() { b.Close(); close(closed) }()
	require.Eventually(t, b.Closing, 10*time.Second, time.Millisecond)
	assert.ErrorIs(t, b.Do(t.Context(), 4), storekit.ErrClosed)
	close(r.release)
	assert.NoError(t, <-held)
	assert.NoError(t, <-held2)
	assert.NoError(t, <-queued, "a call queued before Close is run")
	<-closed
	assert.Len(t, r.seen(), 3)
}
