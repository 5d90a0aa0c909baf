package exporttask

import "errors"

// ErrStorageFull is wrapped by the errors of a task store (package
// taskstore) or an artifact store (package artifact) whose disk is full:
// SQLite's SQLITE_FULL, PostgreSQL's disk_full (SQLSTATE 53100), ENOSPC
// from a file system. The server answers it 507 with Retry-After: a full
// disk is the operator's to fix, not a fault of the request, and a retry
// may succeed once space is freed.
var ErrStorageFull = errors.New("exporttask: the storage is full")

// StorageFull returns err marked as a full disk: errors.Is(result,
// ErrStorageFull) holds, errors.Is and errors.As still find what err
// wraps, and the text is err's. It returns nil for a nil err.
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
