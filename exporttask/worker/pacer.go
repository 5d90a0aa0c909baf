package worker

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// The fairness rule's second half (the first is the workers reserved for
// small tasks, lanes.go). On two cores, as many large exports as there are
// workers would take every core with their goroutines (a DEM's block
// decoders and tile compressors, a RASTER's tile renderers), and a small
// export beside them gets a sliver of CPU. So while any small export runs
// in the process, the large ones share LargeTurns turns at CPU work: each
// chunk of a large export's CPU work (a source block to decode, a tile to
// compress or render, a run of tiles copied, a thumbnail, a zip entry: see
// the exporters' use of export.Pace) waits for a turn, first come
// first served, so the large exports yield at their chunk boundaries.
// They never stop: they go on at the pace of their turns, and at full
// speed again once no small export runs.

// DefaultLargeTurns is the default of [RunnerConfig.LargeTurns]: half the
// cores (GOMAXPROCS), at least one.
func DefaultLargeTurns() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// pacer is the [export.Pacer] the large exports of a Runner share.
type pacer struct {
	limit int // turns the large exports share while a small one runs

	mu    sync.Mutex
	small int       // small exports running
	busy  int       // turns held
	queue []*waiter // waiting for a turn, in order
	// waited, when set (tests), is called with the queue's length after a
	// Turn joined it.
	waited func(n int)
}

// waiter is one Turn waiting.
type waiter struct {
	ready   chan struct{} // closed when granted
	granted bool
}

var _ export.Pacer = (*pacer)(nil)

// open reports whether a turn may start now; mu is held.
func (p *pacer) open() bool { return p.small == 0 || p.busy < p.limit }

// Turn waits for a turn: at once while no small export runs, else when
// fewer than limit turns are held and no earlier Turn waits.
func (p *pacer) Turn(ctx context.Context) (func(), error) {
	p.mu.Lock()
	if len(p.queue) == 0 && p.open() {
		p.busy++
		p.mu.Unlock()
		return p.doneFunc(), nil
	}
	w := &waiter{ready: make(chan struct{})}
	p.queue = append(p.queue, w)
	n, hook := len(p.queue), p.waited
	p.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	select {
	case <-w.ready:
		return p.doneFunc(), nil
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if w.granted { // granted as ctx ended: give it back
		p.busy--
		p.grant()
	} else {
		for i, q := range p.queue {
			if q == w {
				p.queue = append(p.queue[:i], p.queue[i+1:]...)
				break
			}
		}
	}
	return nil, fmt.Errorf("worker: waiting for a turn at CPU work: %w", context.Cause(ctx))
}

// doneFunc returns the function that ends a turn, once.
func (p *pacer) doneFunc() func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.busy--
			p.grant()
		})
	}
}

// grant starts the turns that may start, in order; mu is held.
func (p *pacer) grant() {
	for len(p.queue) > 0 && p.open() {
		w := p.queue[0]
		p.queue = p.queue[1:]
		w.granted = true
		p.busy++
		close(w.ready)
	}
}

// smallStarted counts a small export in; the function it returns counts
// it out, once.
func (p *pacer) smallStarted() func() {
	p.mu.Lock()
	p.small++
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.small--
			p.grant()
		})
	}
}

// pace returns the context a task's export runs with, and the function to
// call when it ends: a small task (estimated at most SmallTask) is counted
// while it runs; a large one runs with the pacer in its context. With
// LargeTurns negative, ctx itself.
func (r *Runner) pace(ctx context.Context, t exporttask.Task) (context.Context, func()) {
	if r.pacer == nil {
		return ctx, func() {}
	}
	if r.isSmall(t) {
		return ctx, r.pacer.smallStarted()
	}
	return export.WithPacer(ctx, r.pacer), func() {}
}
