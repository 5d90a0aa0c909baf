package storekit

import (
	"context"
	"errors"
	"sync"
)

// ErrClosed is the error of a call made of a closed store.
var ErrClosed = errors.New("database is closed")

// Batcher queues calls and hands them to a run function in batches: the
// oldest queued call and every call queued after it, up to a maximum, in
// arrival order. It is how the stores share one commit among several
// writes (group commit): a batch is what queued up while the earlier
// batches ran, so batches grow with the load and a call that finds the
// store idle runs at once, alone.
//
// Up to lanes batches run at once, each on a goroutine of its own. Close
// ends them.
type Batcher[T any] struct {
	run  func(batch []*Call[T])
	max  int
	wake chan struct{} // a call was queued; buffered, 1
	quit chan struct{} // closed by Close
	done sync.WaitGroup

	mu     sync.Mutex
	queue  []*Call[T]
	closed bool
}

// Call is one queued call: its context, its argument, and where its
// outcome goes.
type Call[T any] struct {
	Ctx  context.Context
	Arg  T
	done chan error // receives the outcome, once
}

// Finish sends the call its outcome; the run function of a [Batcher]
// calls it exactly once for every call of a batch.
func (c *Call[T]) Finish(err error) { c.done <- err }

// NewCall makes a call of arg that a run function can be handed outside a
// [Batcher] (a test's batch); [Call.Wait] returns its outcome.
func NewCall[T any](ctx context.Context, arg T) *Call[T] {
	return &Call[T]{Ctx: ctx, Arg: arg, done: make(chan error, 1)}
}

// Wait returns the call's outcome once it is finished.
func (c *Call[T]) Wait() error { return <-c.done }

// NewBatcher starts lanes goroutines that hand the queued calls, in
// batches of at most max, to run. run must finish every call it is
// handed (see [Call.Finish]); it may keep none of them past its return.
func NewBatcher[T any](lanes, max int, run func(batch []*Call[T])) *Batcher[T] {
	b := &Batcher[T]{run: run, max: max, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	b.done.Add(lanes)
	for range lanes {
		go b.lane()
	}
	return b
}

// Do queues a call of arg, waits for its batch to run and returns the
// call's outcome. When ctx ends while the call waits in the queue, Do
// takes it out and returns ctx's error; once a batch holds the call, Do
// waits for its outcome (only the outcome says whether the call's write
// was committed). After Close, Do fails with [ErrClosed].
func (b *Batcher[T]) Do(ctx context.Context, arg T) error {
	c := NewCall(ctx, arg)
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return ErrClosed
	}
	b.queue = append(b.queue, c)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default: // a lane is awake already
	}
	select {
	case err := <-c.done:
		return err
	case <-ctx.Done():
		if b.unqueue(c) {
			return ctx.Err()
		}
		return <-c.done
	}
}

// Close runs the calls queued so far, then ends the lanes. Calls made
// after Close fail with [ErrClosed].
func (b *Batcher[T]) Close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.quit)
	}
	b.mu.Unlock()
	b.done.Wait()
}

// Queued returns how many calls wait in the queue (for tests).
func (b *Batcher[T]) Queued() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}

// Closing reports whether Close was called (for tests).
func (b *Batcher[T]) Closing() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// unqueue takes c out of the queue and reports whether it was still there.
func (b *Batcher[T]) unqueue(c *Call[T]) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, q := range b.queue {
		if q == c {
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			return true
		}
	}
	return false
}

// take removes up to max of the oldest queued calls from the queue and
// appends them to batch.
func (b *Batcher[T]) take(batch []*Call[T]) []*Call[T] {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := min(len(b.queue), b.max)
	batch = append(batch, b.queue[:n]...)
	rest := copy(b.queue, b.queue[n:])
	clear(b.queue[rest:])
	b.queue = b.queue[:rest]
	return batch
}

// lane runs batches until Close, then the calls still queued.
func (b *Batcher[T]) lane() {
	defer b.done.Done()
	batch := make([]*Call[T], 0, b.max)
	for {
		batch = b.take(batch[:0])
		if len(batch) > 0 {
			b.run(batch)
			clear(batch) // let the calls go
			continue
		}
		select {
		case <-b.wake:
		case <-b.quit:
			// Close refuses new calls before closing quit, so once the
			// queue is empty no call can come: the lane may end.
			if batch = b.take(batch[:0]); len(batch) > 0 {
				b.run(batch)
				clear(batch)
				continue
			}
			return
		}
	}
}
