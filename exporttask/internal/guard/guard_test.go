package guard_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/guard"
)

// TestRecoverInGoroutine: a panic in a goroutine becomes a permanent
// error whose reason names no internals; the value and stack stay in the
// cause.
func TestRecoverInGoroutine(t *testing.T) {
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer guard.Recover(&err)
		var m map[string]int
		m["x"]++
	}()
	wg.Wait()
	require.Error(t, err)
	assert.True(t, export.IsPermanent(err))
	var pe *export.PermanentError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, guard.Reason, pe.Reason)
	var p *guard.PanicError
	require.ErrorAs(t, err, &p)
	assert.Contains(t, p.Error(), "nil map")
	assert.Contains(t, string(p.Stack), "guard_test")
}

func TestOnPanicAndRun(t *testing.T) {
	var got error
	func() {
		defer guard.OnPanic(func(err error) { got = err })
		panic("boom")
	}()
	assert.True(t, export.IsPermanent(got))

	want := errors.New("plain")
	assert.Equal(t, want, guard.Run(func() error { return want }), "an error passes as it is")
	assert.NoError(t, guard.Run(func() error { return nil }))
	assert.True(t, export.IsPermanent(guard.Run(func() error { panic(1) })))
}
