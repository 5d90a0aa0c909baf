package clock_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/clock"
)

func TestManualFiresOnlyWhenAdvancedPastTheTimer(t *testing.T) {
	start := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	m := clock.NewManual(start)
	tm := m.NewTimer(time.Minute)
	assert.Equal(t, 1, m.Timers())

	m.Advance(time.Minute - time.Nanosecond)
	select {
	case <-tm.C():
		t.Fatal("the timer fired before its time")
	default:
	}
	m.Advance(time.Nanosecond)
	assert.Equal(t, start.Add(time.Minute), <-tm.C())
	assert.Equal(t, start.Add(time.Minute), m.Now())
	assert.Zero(t, m.Timers())
	assert.False(t, tm.Stop(), "a fired timer cannot be stopped")
}

func TestManualStop(t *testing.T) {
	m := clock.NewManual(time.Unix(0, 0))
	tm := m.NewTimer(time.Second)
	assert.True(t, tm.Stop())
	m.Advance(time.Hour)
	select {
	case <-tm.C():
		t.Fatal("a stopped timer fired")
	default:
	}
	assert.False(t, tm.Stop())
}

func TestManualZeroTimerFiresAtOnce(t *testing.T) {
	m := clock.NewManual(time.Unix(5, 0))
	assert.Equal(t, time.Unix(5, 0), <-m.NewTimer(0).C())
	assert.Zero(t, m.Timers())
}

func TestManualWaitTimers(t *testing.T) {
	m := clock.NewManual(time.Unix(0, 0))
	armed := make(chan struct{})
	go func() {
		<-armed
		m.NewTimer(time.Second)
	}()
	close(armed)
	require.NoError(t, m.WaitTimers(t.Context(), 1))

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := m.WaitTimers(ctx, 2)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "waiting for 2 timers, 1 armed")
}

func TestManualDoesNotGoBack(t *testing.T) {
	assert.PanicsWithValue(t, "clock: Advance(-1s): a Manual clock does not go back", func() {
		clock.NewManual(time.Unix(0, 0)).Advance(-time.Second)
	})
}

func TestRealIsTheSystemClock(t *testing.T) {
	c := clock.Real()
	before := time.Now()
	now := c.Now()
	assert.False(t, now.Before(before))
	tm := c.NewTimer(time.Hour)
	assert.True(t, tm.Stop())
	<-c.NewTimer(0).C()
}
