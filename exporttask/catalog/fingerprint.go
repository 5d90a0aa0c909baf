package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// QuickBytes is how many bytes at each end of a source's file the quick
// fingerprint ([Source.Quick]) hashes.
const QuickBytes = 64 << 10

// hashChunk is how much of a file is hashed between two looks at the
// context.
const hashChunk = 4 << 20

// Fingerprints returns the content fingerprint ([Source.Content]) and the
// quick fingerprint ([Source.Quick]) of the file path, the file a source's
// Size and ModTime are those of (the source file, or a directory source's
// index file). For a directory (a tile directory without an index file)
// both are the hash of its sorted entry names and kinds. Reading the
// whole file, it stops when ctx is done.
func Fingerprints(ctx context.Context, path string) (content, quick string, err error) {
	if dir, ok, err := dirFingerprint(path); ok || err != nil {
		return dir, dir, err
	}
	f, st, err := sourcefs.OpenFile(path)
	if err != nil {
		return "", "", fmt.Errorf("catalog: fingerprint of %s: %w", path, err)
	}
	defer f.Close()
	whole := sha256.New()
	buf := make([]byte, hashChunk)
	for {
		if err := ctx.Err(); err != nil {
			return "", "", err
		}
		n, err := f.Read(buf)
		whole.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", "", fmt.Errorf("catalog: fingerprint of %s: %w", path, err)
		}
	}
	quick, err = quickOf(f, st.Size())
	if err != nil {
		return "", "", fmt.Errorf("catalog: fingerprint of %s: %w", path, err)
	}
	return hex.EncodeToString(whole.Sum(nil)), quick, nil
}

// QuickFingerprint returns the quick fingerprint ([Source.Quick]) of the
// file path: at most 2 × [QuickBytes] read, whatever its size.
func QuickFingerprint(path string) (string, error) {
	if dir, ok, err := dirFingerprint(path); ok || err != nil {
		return dir, err
	}
	f, st, err := sourcefs.OpenFile(path)
	if err != nil {
		return "", fmt.Errorf("catalog: fingerprint of %s: %w", path, err)
	}
	defer f.Close()
	q, err := quickOf(f, st.Size())
	if err != nil {
		return "", fmt.Errorf("catalog: fingerprint of %s: %w", path, err)
	}
	return q, nil
}

// quickOf hashes the size of f and its first and last QuickBytes (the
// whole file when it is smaller than both).
func quickOf(f *os.File, size int64) (string, error) {
	h := sha256.New()
	h.Write([]byte(strconv.FormatInt(size, 10) + "\x00"))
	if err := hashRange(h, f, 0, min(size, QuickBytes)); err != nil {
		return "", err
	}
	if tail := max(QuickBytes, size-QuickBytes); tail < size {
		if err := hashRange(h, f, tail, size-tail); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashRange writes the n bytes of f from off into h (fewer if the file is
// shorter).
func hashRange(h hash.Hash, f *os.File, off, n int64) error {
	if _, err := io.Copy(h, io.NewSectionReader(f, off, n)); err != nil {
		return err
	}
	return nil
}

// dirFingerprint returns, when path is a directory, the hash of its
// entries' names and kinds in name order (ok true).
func dirFingerprint(path string) (sum string, ok bool, err error) {
	st, err := os.Lstat(path)
	if err != nil || !st.IsDir() {
		return "", false, nil // a file, or nothing: the caller's open says
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return "", true, fmt.Errorf("catalog: fingerprint of %s: %w", path, err)
	}
	h := sha256.New()
	for _, e := range entries { // sorted by name
		h.Write([]byte(e.Type().String() + " " + filepath.Base(e.Name()) + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}
