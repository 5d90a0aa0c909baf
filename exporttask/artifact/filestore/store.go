package filestore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

var _ artifact.Store = (*Store)(nil)

// StaleAfter is how long a temporary file must have gone unwritten before
// [Open] takes it for the leftover of a crashed writer and removes it.
const StaleAfter = time.Hour

// Store is an [artifact.Store] on a directory. It is safe for
// concurrent use, also by several processes sharing the directory.
type Store struct {
	root string // absolute, cleaned
}

// Open returns the store on dir, creating the directory if needed, and
// removes the temporary files of writers idle for [StaleAfter] (left by a
// crash).
func Open(ctx context.Context, dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("filestore: empty directory name")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("filestore: directory %q: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("filestore: %w", err)
	}
	s := &Store{root: abs}
	if _, err := s.RemoveStale(ctx, StaleAfter); err != nil {
		return nil, err
	}
	return s, nil
}

// Dir returns the store's directory (absolute).
func (s *Store) Dir() string { return s.root }

// path returns the file name of a checked key.
func (s *Store) path(key string) string {
	return filepath.Join(s.root, filepath.FromSlash(key))
}

// Open returns the committed file at key, backed by an *os.File.
func (s *Store) Open(ctx context.Context, key string) (artifact.Object, error) {
	if err := artifactkey.Check(key); err != nil {
		return nil, fmt.Errorf("filestore: open: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("filestore: open %q: %w", key, err)
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		if notFound(err) {
			return nil, fmt.Errorf("filestore: open %q: %w", key, artifact.ErrNotFound)
		}
		return nil, fmt.Errorf("filestore: open %q: %w", key, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("filestore: open %q: %w", key, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("filestore: open %q: %w", key, artifact.ErrNotFound)
	}
	return &object{File: f, info: artifact.Info{Key: key, Size: st.Size(), ModTime: st.ModTime()}}, nil
}

// notFound reports whether err means that no file is at a path: missing, or
// a path component is a file.
func notFound(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || isNotDir(err)
}

// object is an open committed file.
type object struct {
	*os.File
	info artifact.Info
}

func (o *object) Info() artifact.Info { return o.info }

// isTemp reports whether a directory entry name is one of the store's own
// (a writer's temporary file): keys never have a segment starting with a
// dot.
func isTemp(name string) bool { return strings.HasPrefix(name, ".") }
