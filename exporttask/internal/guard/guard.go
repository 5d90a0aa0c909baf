// Package guard turns a panic in a goroutine of an export into an error
// that fails the export's task, so that one bad input fails one task and
// never the process: every goroutine an exporter starts defers [Recover]
// (or [OnPanic]) first.
//
//	go func() {
//		defer wg.Done()
//		defer guard.Recover(&errs[i])
//		errs[i] = work(i)
//	}()
//
// The error is an [export.PermanentError] whose Reason ([Reason]) says
// nothing of the panic: the value and stack stay in the error's cause, a
// [*PanicError], for the logs. A panic is not retried: the same input
// would panic again.
package guard

import (
	"fmt"
	"runtime/debug"

	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Reason is the errorReason of a task whose export panicked.
const Reason = "the export stopped on an internal error; it is not tried again"

// PanicError is a recovered panic: its value and the stack of the
// goroutine that panicked.
type PanicError struct {
	Value any
	Stack []byte
}

// Error is the panic's value, for the logs.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Err returns the error a panic with value v fails its task with: a
// permanent error with [Reason], caused by a [*PanicError] holding v and
// the current stack. Call it from the deferred function that recovered.
func Err(v any) error {
	return export.Permanent(Reason, &PanicError{Value: v, Stack: debug.Stack()})
}

// Recover, deferred, turns a panic of its goroutine into [Err] stored in
// *errp. Without a panic it does nothing.
func Recover(errp *error) {
	if v := recover(); v != nil {
		*errp = Err(v)
	}
}

// OnPanic, deferred, passes [Err] of a panic of its goroutine to fail.
// Without a panic it does nothing.
func OnPanic(fail func(error)) {
	if v := recover(); v != nil {
		fail(Err(v))
	}
}

// Run calls fn and returns its error, or [Err] when it panics.
func Run(fn func() error) (err error) {
	defer Recover(&err)
	return fn()
}
