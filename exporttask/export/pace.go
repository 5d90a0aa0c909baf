package export

import "context"

// A Pacer hands out turns at CPU work to the large exports of a process,
// so that small exports running beside them keep a share of the cores. A
// worker's Runner (package worker) gives one to each export it runs as
// large, through its context ([WithPacer]); an exporter calls [Pace] around
// each chunk of its CPU work (a tile to compress, a source block to
// decode), and so yields at those boundaries while small exports run.
type Pacer interface {
	// Turn waits for a turn at one chunk of CPU work and returns the
	// function that ends it, or an error wrapping ctx's when ctx ends
	// first.
	Turn(ctx context.Context) (done func(), err error)
}

// pacerKey is the context key of the Pacer.
type pacerKey struct{}

// WithPacer returns a copy of ctx that carries p for [Pace].
func WithPacer(ctx context.Context, p Pacer) context.Context {
	return context.WithValue(ctx, pacerKey{}, p)
}

// Pace waits for a turn at one chunk of CPU work from the [Pacer] ctx
// carries and returns the function that ends the turn (call it once);
// without a Pacer it returns at once. A chunk is work that waits for
// nothing but the CPU and its own files: a goroutine must not wait for
// another chunk (or for a goroutine that takes one) while it holds a turn,
// or the turns can run out with every holder waiting.
func Pace(ctx context.Context) (done func(), err error) {
	p, ok := ctx.Value(pacerKey{}).(Pacer)
	if !ok || p == nil {
		return func() {}, nil
	}
	return p.Turn(ctx)
}
