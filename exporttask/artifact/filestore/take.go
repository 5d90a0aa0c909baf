package filestore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
)

var _ artifact.FileTaker = (*writer)(nil)

// TakeFile makes the regular file at path the writer's content: it
// renames it over the writer's temporary file, which Commit renames into
// place as it does a written one, and reads it once for its SHA-256 while
// the file is flushed to disk on another goroutine (so that Commit's
// flush finds little left to do: the disk writes while the CPU hashes).
// When the file is on another file system than the store (the rename
// fails with EXDEV), it is copied instead. Nothing may have been written
// before.
func (w *writer) TakeFile(path string) (int64, string, error) {
	if w.f == nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: %w", w.key, errClosed)
	}
	if w.size > 0 || w.err != nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: the writer was written to already", w.key)
	}
	moved, err := w.moveIn(path)
	if err != nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: %w", w.key, noSpace(err))
	}
	if !moved {
		n, sum, err := artifact.CopyFile(w, path)
		if err != nil {
			return 0, "", fmt.Errorf("filestore: copy a file as %q: %w", w.key, noSpace(err))
		}
		return n, sum, nil
	}
	synced := make(chan error, 1)
	go func() { synced <- w.f.Sync() }()
	size, sum, err := artifact.CopyFile(io.Discard, w.temp)
	if serr := <-synced; err == nil && serr != nil {
		err = noSpace(serr)
	}
	if err != nil {
		w.err = fmt.Errorf("filestore: take a file as %q: %w", w.key, err)
		return 0, "", w.err
	}
	w.size = size
	w.hash = fixedSum(sum)
	return size, sum, nil
}

// moveIn renames path over the temporary file and reopens it, reporting
// moved false (and no error) when path is on another file system. A
// temporary file that a DeletePrefix removed since Create is not brought
// back: that is an error.
func (w *writer) moveIn(path string) (moved bool, err error) {
	here, err := w.f.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Stat(w.temp)
	if err != nil || !os.SameFile(here, now) {
		return false, fmt.Errorf("the write was cancelled (its files were deleted)")
	}
	st, err := os.Lstat(path)
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() {
		return false, fmt.Errorf("%s is not a regular file", st.Name())
	}
	// Readable as a written file is (a scratch file is private).
	if err := os.Chmod(path, 0o644); err != nil {
		return false, err
	}
	if err := os.Rename(path, w.temp); err != nil {
		if errors.Is(err, syscall.EXDEV) {
			return false, nil
		}
		return false, err
	}
	w.f.Close()
	// Reopened for Commit's Sync of the moved file, read-only: a Write
	// after TakeFile fails, and Commit then refuses.
	f, err := os.Open(w.temp)
	if err != nil {
		w.f = nil
		os.Remove(w.temp)
		return false, err
	}
	w.f = f
	return true, nil
}

// fixedSum is a hash.Hash whose sum is known already: that of a file
// taken whole.
type fixedSum string

func (s fixedSum) Write(p []byte) (int, error) { return len(p), nil }
func (s fixedSum) Sum(b []byte) []byte {
	raw, _ := hex.DecodeString(string(s))
	return append(b, raw...)
}
func (s fixedSum) Reset()         {}
func (s fixedSum) Size() int      { return sha256.Size }
func (s fixedSum) BlockSize() int { return sha256.BlockSize }
