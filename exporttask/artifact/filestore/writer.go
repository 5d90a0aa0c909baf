package filestore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// Create starts the file at key: a hidden temporary file in the key's
// directory, renamed into place by Commit.
func (s *Store) Create(ctx context.Context, key string) (artifact.Writer, error) {
	if err := artifactkey.Check(key); err != nil {
		return nil, fmt.Errorf("filestore: create: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("filestore: create %q: %w", key, err)
	}
	final := s.path(key)
	dir, name := filepath.Split(final)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("filestore: create %q: %w", key, noSpace(err))
	}
	var random [8]byte
	_, _ = rand.Read(random[:]) // never fails (crypto/rand)
	temp := filepath.Join(dir, "."+name+"."+hex.EncodeToString(random[:])+".tmp")
	f, err := os.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("filestore: create %q: %w", key, noSpace(err))
	}
	return &writer{key: key, final: final, temp: temp, f: f, hash: sha256.New()}, nil
}

// writer streams one file into its temporary file.
type writer struct {
	key, final, temp string
	f                *os.File // nil once committed or aborted
	hash             hash.Hash
	size             int64
	err              error // first write error; Commit refuses after it
	committed        bool
}

var errClosed = errors.New("writer already committed or aborted")

// noSpace marks err with [exporttask.ErrStorageFull] when the file system
// is full.
func noSpace(err error) error {
	if isNoSpace(err) {
		return exporttask.StorageFull(err)
	}
	return err
}

func (w *writer) Write(p []byte) (int, error) {
	if w.f == nil {
		return 0, fmt.Errorf("filestore: write %q: %w", w.key, errClosed)
	}
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	w.hash.Write(p[:n])
	w.size += int64(n)
	if err != nil {
		w.err = fmt.Errorf("filestore: write %q: %w", w.key, noSpace(err))
		return n, w.err
	}
	return n, nil
}

// Commit flushes the temporary file to disk and renames it over the key's
// file, then flushes the directory so the rename survives a crash.
func (w *writer) Commit() (artifact.Info, error) {
	if w.f == nil {
		return artifact.Info{}, fmt.Errorf("filestore: commit %q: %w", w.key, errClosed)
	}
	if w.err != nil {
		w.discard()
		return artifact.Info{}, fmt.Errorf("filestore: commit %q after a failed write: %w", w.key, w.err)
	}
	info, err := w.commit()
	if err != nil {
		w.discard()
		return artifact.Info{}, fmt.Errorf("filestore: commit %q: %w", w.key, noSpace(err))
	}
	w.f, w.committed = nil, true
	return info, nil
}

func (w *writer) commit() (artifact.Info, error) {
	if err := w.f.Sync(); err != nil {
		return artifact.Info{}, err
	}
	st, err := w.f.Stat()
	if err != nil {
		return artifact.Info{}, err
	}
	if err := w.f.Close(); err != nil {
		return artifact.Info{}, err
	}
	// A DeletePrefix since Create removed the temporary file: the rename
	// fails with "not exist", and the file stays deleted.
	if err := os.Rename(w.temp, w.final); err != nil {
		return artifact.Info{}, err
	}
	if err := syncDir(filepath.Dir(w.final)); err != nil {
		return artifact.Info{}, err
	}
	return artifact.Info{
		Key:     w.key,
		Size:    w.size,
		ModTime: st.ModTime(),
		SHA256:  hex.EncodeToString(w.hash.Sum(nil)),
	}, nil
}

// Abort removes the temporary file. After Commit it does nothing.
func (w *writer) Abort() error {
	if w.committed || w.f == nil {
		return nil
	}
	return w.discard()
}

// discard closes and removes the temporary file.
func (w *writer) discard() error {
	w.f.Close()
	w.f = nil
	if err := os.Remove(w.temp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("filestore: abort %q: %w", w.key, err)
	}
	return nil
}

// syncDir flushes a directory's entries (a rename in it) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !syncUnsupported(err) {
		return err
	}
	return nil
}
