package worker

import "github.com/openapi-viewer/viewer/exporttask/artifact"

// storageReason is the errorReason of a task whose files could not be
// written to the artifact store: the store's own error names endpoints,
// buckets and upload ids that are no business of the customer (it is
// logged in full).
const storageReason = "the exported files could not be stored"

// storageError marks an error of the artifact store met while an export
// wrote its files.
type storageError struct{ err error }

func (e *storageError) Error() string { return e.err.Error() }
func (e *storageError) Unwrap() error { return e.err }

// markStorage wraps a non-nil err as a storageError.
func markStorage(err error) error {
	if err == nil {
		return nil
	}
	return &storageError{err: err}
}

// storageWriter marks the errors of an artifact store's writer, and
// tells stored the bytes it stores.
type storageWriter struct {
	w      artifact.Writer
	stored func(n int64) error // nil: not counted
}

func (s storageWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		return n, markStorage(err)
	}
	return n, s.count(int64(n))
}

// count tells stored about n bytes stored; its error (the task was
// aborted or its lease lost) stops the write.
func (s storageWriter) count(n int64) error {
	if s.stored == nil || n <= 0 {
		return nil
	}
	return s.stored(n)
}

func (s storageWriter) Commit() (artifact.Info, error) {
	info, err := s.w.Commit()
	return info, markStorage(err)
}

func (s storageWriter) Abort() error { return markStorage(s.w.Abort()) }

// TakeFile makes the file at path the content, moved by the store's
// writer where it can take files (see [artifact.FileTaker]), else
// copied.
func (s storageWriter) TakeFile(path string) (int64, string, error) {
	n, sum, err := artifact.StoreFile(s.w, path)
	if err != nil {
		return n, sum, markStorage(err)
	}
	return n, sum, s.count(n)
}
