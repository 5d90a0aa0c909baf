// Package clock is the time that the worker's Runner and the webhook
// Deliverer read and wait on: [Real] in production, a [Manual] clock in
// tests, whose time moves only when the test says, so that a test proves
// that something did not happen by a time without waiting for that time.
package clock

import "time"

// Clock tells the time and makes timers.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// NewTimer returns a timer that fires once d has passed.
	NewTimer(d time.Duration) Timer
}

// Timer fires once, as [time.Timer] does.
type Timer interface {
	// C receives the time when the timer fires.
	C() <-chan time.Time
	// Stop keeps the timer from firing; it reports whether it stopped
	// it (false when it had fired or was stopped already).
	Stop() bool
}

// Real returns the system clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }

func (t realTimer) Stop() bool { return t.t.Stop() }
