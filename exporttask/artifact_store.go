package exporttask

import (
	"context"
	"errors"
	"io"
	"strconv"
	"time"
)

// ArtifactStore keeps the files that exports produce. Keys are slash-separated
// paths; the files of task 42 live under the key prefix "42/" (see
// [ArtifactKey]). Implementations: a directory on disk, or an S3-compatible
// bucket. They must be safe for concurrent use.
//
// Writes are all or nothing: a file becomes visible to Open and List only
// when its writer commits, so a crash, a full disk or an aborted export never
// leaves half a file to download.
type ArtifactStore interface {
	// Create starts a new file at key. Nothing is visible until the
	// writer's Commit; Abort (or a failed Commit) leaves nothing behind.
	// Creating a key that exists replaces it at Commit.
	Create(ctx context.Context, key string) (ArtifactWriter, error)
	// Open returns the committed file at key. A missing key is an error
	// that wraps [ErrArtifactNotFound]. The caller closes the object.
	Open(ctx context.Context, key string) (ArtifactObject, error)
	// List returns the committed files whose keys start with prefix, in
	// key order.
	List(ctx context.Context, prefix string) ([]ArtifactInfo, error)
	// DeletePrefix removes every file whose key starts with prefix (a
	// task's "42/"), including writes not yet committed where the store
	// can find them. Removing nothing is not an error.
	DeletePrefix(ctx context.Context, prefix string) error
}

// ArtifactWriter writes one file of an [ArtifactStore]. Exactly one of
// Commit and Abort must be called.
type ArtifactWriter interface {
	io.Writer
	// Commit makes the file visible and returns what was stored.
	Commit() (ArtifactInfo, error)
	// Abort discards what was written.
	Abort() error
}

// ArtifactObject is an open, committed file: it reads and seeks (as
// http.ServeContent needs for Range requests) and knows its metadata.
type ArtifactObject interface {
	io.ReadSeekCloser
	Info() ArtifactInfo
}

// ArtifactInfo describes a committed file.
type ArtifactInfo struct {
	Key     string    // the file's key
	Size    int64     // bytes
	ModTime time.Time // when it was committed
	SHA256  string    // hex digest of the content, when the store knows it
}

// ArtifactPresigner is implemented by artifact stores that can hand out a
// time-limited URL to download a file directly (S3 presigned GET). A server
// may redirect downloads to such a URL; the URL is minted per request and
// never stored.
type ArtifactPresigner interface {
	PresignGet(ctx context.Context, key string, expires time.Duration, filename string) (string, error)
}

// ErrArtifactNotFound is returned (wrapped) by [ArtifactStore.Open] for a
// key that holds no committed file.
var ErrArtifactNotFound = errors.New("artifact not found")

// ArtifactKey returns the key of task id's file name: "<id>/<name>".
func ArtifactKey(id int64, name string) string {
	return ArtifactPrefix(id) + name
}

// ArtifactPrefix returns the key prefix under which task id's files live.
func ArtifactPrefix(id int64) string {
	return strconv.FormatInt(id, 10) + "/"
}
