package worker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// receive returns the next value of ch, failing the test after 10 s.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
		panic("unreachable")
	}
}

// state is the pacer's queue length and turns held.
func (p *pacer) state() (queued, busy int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue), p.busy
}

// TestPacerTurnsWhileSmallRuns: without a small export running, turns
// start at once however many are held; while one runs, a turn waits until
// fewer than limit are held, and it starts as the turns end (in order);
// once no small export runs, every waiting turn starts.
func TestPacerTurnsWhileSmallRuns(t *testing.T) {
	joined := make(chan int, 8)
	p := &pacer{limit: 1, waited: func(n int) { joined <- n }}
	ctx := context.Background()
	done1, err := p.Turn(ctx)
	require.NoError(t, err)
	done2, err := p.Turn(ctx)
	require.NoError(t, err, "no small export runs: a second turn starts at once")

	smallEnded := p.smallStarted()
	got := make(chan func(), 2)
	for range 2 {
		go func() {
			done, err := p.Turn(ctx)
			assert.NoError(t, err)
			got <- done
		}()
	}
	receive(t, joined, "a turn waiting")
	receive(t, joined, "another turn waiting")
	select {
	case <-got:
		t.Fatal("a turn started while a small export ran with 2 turns held and a limit of 1")
	default:
	}

	done1()
	queued, busy := p.state()
	assert.Equal(t, [2]int{2, 1}, [2]int{queued, busy}, "one turn of two ended: still at the limit, both wait")
	done2()
	queued, busy = p.state()
	assert.Equal(t, [2]int{1, 1}, [2]int{queued, busy}, "below the limit: the first waiting turn starts, the other waits")
	first := receive(t, got, "the first waiting turn")
	select {
	case <-got:
		t.Fatal("the second waiting turn started beside the first")
	default:
	}

	smallEnded()
	second := receive(t, got, "the second waiting turn, once no small export runs")
	first()
	second()
	first() // ending a turn twice counts once
	queued, busy = p.state()
	assert.Equal(t, [2]int{0, 0}, [2]int{queued, busy})
}

// TestPacerTurnGivesUpWithItsContext: a waiting turn whose context ends
// returns an error wrapping the cause and leaves the queue.
func TestPacerTurnGivesUpWithItsContext(t *testing.T) {
	joined := make(chan int, 1)
	p := &pacer{limit: 1, waited: func(n int) { joined <- n }}
	defer p.smallStarted()()
	held, err := p.Turn(context.Background())
	require.NoError(t, err)
	defer held()

	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("task aborted")
	errc := make(chan error, 1)
	go func() {
		_, err := p.Turn(ctx)
		errc <- err
	}()
	receive(t, joined, "the turn waiting")
	cancel(cause)
	assert.ErrorIs(t, receive(t, errc, "the turn giving up"), cause)
	queued, busy := p.state()
	assert.Equal(t, [2]int{0, 1}, [2]int{queued, busy})
}
