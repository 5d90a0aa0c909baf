package clock

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Manual is a [Clock] whose time moves only by [Manual.Advance], which
// fires the timers whose time it reaches. A test waits for the code under
// test to arm its next timer ([Manual.WaitTimers]): that code has then
// done what it does before it waits, so what it did not do by then it
// will not do before the clock moves. Safe for concurrent use.
type Manual struct {
	mu      sync.Mutex
	now     time.Time
	timers  map[*manualTimer]struct{}
	changed chan struct{} // closed when a timer is armed
}

// NewManual returns a Manual clock at now.
func NewManual(now time.Time) *Manual {
	return &Manual{now: now, timers: map[*manualTimer]struct{}{}, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// NewTimer returns a timer that fires when Advance reaches d from now; at
// once when d <= 0.
func (m *Manual) NewTimer(d time.Duration) Timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimer{m: m, at: m.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- m.now
		return t
	}
	m.timers[t] = struct{}{}
	close(m.changed)
	m.changed = make(chan struct{})
	return t
}

// Advance moves the clock d forward and fires the timers whose time it
// reaches. A negative d is a mistake of the test, and panics.
func (m *Manual) Advance(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("clock: Advance(%s): a Manual clock does not go back", d))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
	for t := range m.timers {
		if !t.at.After(m.now) {
			delete(m.timers, t)
			t.c <- m.now
		}
	}
}

// Timers returns how many timers are armed and not yet fired or stopped.
func (m *Manual) Timers() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.timers)
}

// WaitTimers waits until at least n timers are armed, or ctx is done.
func (m *Manual) WaitTimers(ctx context.Context, n int) error {
	for {
		m.mu.Lock()
		armed, changed := len(m.timers), m.changed
		m.mu.Unlock()
		if armed >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("clock: waiting for %d timers, %d armed: %w", n, armed, ctx.Err())
		}
	}
}

type manualTimer struct {
	m  *Manual
	at time.Time
	c  chan time.Time
}

func (t *manualTimer) C() <-chan time.Time { return t.c }

func (t *manualTimer) Stop() bool {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	_, armed := t.m.timers[t]
	delete(t.m.timers, t)
	return armed
}
