package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// FileTaker is a [Writer] that can take a finished file as its
// content by moving it instead of copying its bytes.
type FileTaker interface {
	// TakeFile makes the regular file at path the content of the writer,
	// to which nothing was written, and returns its size and SHA-256
	// (hex). Once it succeeds the file may be gone from path.
	TakeFile(path string) (size int64, sha256 string, err error)
}

// StoreFile makes the regular file at path w's content, moved by a
// [FileTaker] or else copied, and returns its size and SHA-256 (hex); path
// may be gone afterwards.
func StoreFile(w Writer, path string) (size int64, sum string, err error) {
	if t, ok := w.(FileTaker); ok {
		return t.TakeFile(path)
	}
	return CopyFile(w, path)
}

// CopyFile copies the regular file at path into w and returns its size and
// SHA-256 (hex).
func CopyFile(w io.Writer, path string) (size int64, sum string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, "", err
	}
	if !st.Mode().IsRegular() {
		return 0, "", fmt.Errorf("%s is not a regular file", st.Name())
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), f)
	if err != nil {
		return n, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}
