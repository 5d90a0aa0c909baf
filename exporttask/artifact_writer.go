package exporttask

import (
	"io"
	"time"
)

// ArtifactWriter writes one artifact file (see [Output]); it is not safe for
// concurrent use. Commit or Abort must be called; Abort after a successful
// Commit does nothing, so `defer w.Abort()` is the safe way to write.
type ArtifactWriter interface {
	io.Writer
	// Commit makes the file visible and returns what was stored, with
	// its SHA-256 (computed while writing). A failed Commit leaves
	// nothing behind.
	Commit() (ArtifactInfo, error)
	// Abort discards what was written.
	Abort() error
}

// ArtifactInfo describes a committed file.
type ArtifactInfo struct {
	Key     string    // the file's key
	Size    int64     // bytes
	ModTime time.Time // when it was committed
	SHA256  string    // hex digest of the content: always set by Commit; by Open and List only where the store keeps it
}
