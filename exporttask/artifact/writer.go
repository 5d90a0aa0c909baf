package artifact

import (
	"io"
	"time"
)

// Writer writes one artifact file; it is not safe for concurrent
// use. Call Commit or Abort; `defer w.Abort()` is safe, as Abort after Commit
// does nothing.
type Writer interface {
	io.Writer
	Commit() (Info, error) // makes the file visible, or leaves nothing
	Abort() error          // discards what was written
}

// Info describes a committed file.
type Info struct {
	Key     string    // the file's key
	Size    int64     // bytes
	ModTime time.Time // when it was committed
	SHA256  string    // hex digest of the content: always set by Commit; by Open and List only where the store keeps it
}
