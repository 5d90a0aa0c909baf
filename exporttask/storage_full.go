package exporttask

import "errors"

// ErrStorageFull is wrapped by the errors of a task or artifact store whose
// disk is full; the server answers it 507 with Retry-After.
var ErrStorageFull = errors.New("exporttask: the storage is full")

// StorageFull returns err (nil for nil) marked so that errors.Is(result,
// ErrStorageFull) holds, with err's text and chain kept.
func StorageFull(err error) error {
	if err == nil || errors.Is(err, ErrStorageFull) {
		return err
	}
	return &storageFullError{err: err}
}

// storageFullError is an error marked by StorageFull.
type storageFullError struct{ err error }

func (e *storageFullError) Error() string { return e.err.Error() }

func (e *storageFullError) Unwrap() []error { return []error{e.err, ErrStorageFull} }
