package filestore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/openapi-viewer/viewer/exporttask"
)

var _ exporttask.FileTaker = (*writer)(nil)

// TakeFile makes the regular file at path the writer's content: it reads
// the file once for its SHA-256, then renames it over the writer's
// temporary file, which Commit renames into place as it does a written
// one. When the file is on another file system than the store (the rename
// fails with EXDEV), it is copied instead. Nothing may have been written
// before.
func (w *writer) TakeFile(path string) (int64, string, error) {
	if w.f == nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: %w", w.key, errClosed)
	}
	if w.size > 0 || w.err != nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: the writer was written to already", w.key)
	}
	size, sum, err := hashFile(path)
	if err != nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: %w", w.key, err)
	}
	moved, err := w.moveIn(path)
	if err != nil {
		return 0, "", fmt.Errorf("filestore: take a file as %q: %w", w.key, noSpace(err))
	}
	if !moved {
		n, csum, err := exporttask.CopyFile(w, path)
		if err != nil {
			return 0, "", fmt.Errorf("filestore: copy a file as %q: %w", w.key, noSpace(err))
		}
		if n != size || csum != sum {
			return 0, "", fmt.Errorf("filestore: copy a file as %q: the file changed while it was stored", w.key)
		}
		return n, sum, nil
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

// hashFile reads the regular file at path and returns its size and
// SHA-256 (hex).
func hashFile(path string) (int64, string, error) {
	return exporttask.CopyFile(io.Discard, path)
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
