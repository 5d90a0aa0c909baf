package export

import "errors"

// PermanentError marks an export failure that retrying cannot fix: the task
// ends FAILED at once with Reason as its errorReason. Any other export error
// is transient, and the task is tried again up to the worker's limit.
type PermanentError struct {
	Reason string // what the client is told, without internals
	Err    error  // the cause, for the logs; may be nil
}

func (e *PermanentError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return e.Reason + ": " + e.Err.Error()
}

func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent wraps err as a [PermanentError] with the given client-facing
// reason.
func Permanent(reason string, err error) error {
	return &PermanentError{Reason: reason, Err: err}
}

// IsPermanent reports whether err is, or wraps, a [PermanentError].
func IsPermanent(err error) bool {
	var pe *PermanentError
	return errors.As(err, &pe)
}
