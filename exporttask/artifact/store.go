package artifact

import (
	"context"
	"errors"
	"io"
	"time"
)

// Store keeps the files that exports produce. Keys are slash-separated
// paths; the files of task 42 live under the key prefix "42/". Implementations: a directory on disk, or an S3-compatible
// bucket. They must be safe for concurrent use.
//
// Every method checks its key or prefix before touching storage, and
// refuses a bad one with an error wrapping [ErrKey], so a bad key
// is refused the same way by every store. A valid key is non-empty, at
// most 1,024 bytes of valid UTF-8, made of slash-separated segments of at
// most 200 bytes that are not empty and do not start with a dot, with no
// leading or trailing slash, no backslash and no control character; a
// valid prefix is empty or a valid key with an optional trailing slash.
//
// Writes are all or nothing: a file becomes visible to Open and List only
// when its writer commits, so a crash, a full disk or an aborted export never
// leaves half a file to download.
type Store interface {
	// Create starts a new file at key. Nothing is visible until the
	// writer's Commit; Abort (or a failed Commit) leaves nothing behind.
	// Creating a key that exists replaces it at Commit.
	Create(ctx context.Context, key string) (Writer, error)
	// Open returns the committed file at key. A missing key is an error
	// that wraps [ErrNotFound]. The caller closes the object.
	Open(ctx context.Context, key string) (Object, error)
	// List returns the committed files whose keys start with prefix, in
	// key order.
	List(ctx context.Context, prefix string) ([]Info, error)
	// DeletePrefix removes every file whose key starts with prefix (a
	// task's "42/"); writes under it not yet committed are cancelled: their
	// Commit fails and leaves nothing. Removing nothing is not an error;
	// the empty prefix is refused, so a bug cannot empty the whole store.
	DeletePrefix(ctx context.Context, prefix string) error
}

// Object is an open, committed file: it reads and seeks (as
// http.ServeContent needs for Range requests) and knows its metadata.
type Object interface {
	io.ReadSeekCloser
	Info() Info
}

// Presigner is implemented by artifact stores that can hand out a
// time-limited URL to download a file directly (S3 presigned GET). A server
// may redirect downloads to such a URL; the URL is minted per request and
// never stored.
type Presigner interface {
	PresignGet(ctx context.Context, key string, expires time.Duration, filename string) (string, error)
}

// ErrNotFound is returned (wrapped) by [Store.Open] for a
// key that holds no committed file.
var ErrNotFound = errors.New("artifact not found")

// ErrKey is returned (wrapped, with the key) for a key or prefix
// that is not valid (see [Store]).
var ErrKey = errors.New("invalid artifact key")
