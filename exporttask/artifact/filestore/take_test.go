package filestore_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
)

// scratchFile writes a file of n bytes in dir and returns its path, its
// SHA-256 and its identity.
func scratchFile(t *testing.T, dir string, n int) (string, string, os.FileInfo) {
	t.Helper()
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	path := filepath.Join(dir, "export.gpkg")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	st, err := os.Stat(path)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return path, hex.EncodeToString(sum[:]), st
}

// TestTakeFileMoves: a finished file on the store's file system is moved
// in, not copied: the committed file is the same inode, the scratch path
// is gone, and size and SHA-256 are those of the file.
func TestTakeFileMoves(t *testing.T) {
	root := t.TempDir()
	s, err := filestore.Open(t.Context(), filepath.Join(root, "artifacts"))
	require.NoError(t, err)
	scratch := filepath.Join(root, "scratch")
	require.NoError(t, os.Mkdir(scratch, 0o700))
	path, sum, before := scratchFile(t, scratch, 300_000)

	w, err := s.Create(t.Context(), "42/export.gpkg")
	require.NoError(t, err)
	n, got, err := artifact.StoreFile(w, path)
	require.NoError(t, err)
	assert.Equal(t, int64(300_000), n)
	assert.Equal(t, sum, got)
	_, err = w.Write([]byte("more"))
	assert.Error(t, err, "nothing can be written after TakeFile")
	info, err := w.Commit()
	require.Error(t, err, "a write after TakeFile makes Commit refuse")
	assert.Empty(t, info.Key)

	path, sum, before = scratchFile(t, scratch, 300_000)
	w, err = s.Create(t.Context(), "42/export.gpkg")
	require.NoError(t, err)
	_, _, err = artifact.StoreFile(w, path)
	require.NoError(t, err)
	info, err = w.Commit()
	require.NoError(t, err)
	assert.Equal(t, sum, info.SHA256)
	assert.Equal(t, int64(300_000), info.Size)
	assert.NoFileExists(t, path, "the file was moved out of the scratch directory")
	after, err := os.Stat(filepath.Join(root, "artifacts", "42", "export.gpkg"))
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the stored file is the scratch file itself, not a copy")
	assert.Equal(t, os.FileMode(0o644), after.Mode().Perm(), "readable as a written file is")

	obj, err := s.Open(t.Context(), "42/export.gpkg")
	require.NoError(t, err)
	defer obj.Close()
	h := sha256.New()
	_, err = io.Copy(h, obj)
	require.NoError(t, err)
	assert.Equal(t, sum, hex.EncodeToString(h.Sum(nil)))
}

// TestTakeFileCopiesAcrossFileSystems: from another file system (the
// shared-memory tmpfs), the file is copied, and stays where it was.
func TestTakeFileCopiesAcrossFileSystems(t *testing.T) {
	other := "/dev/shm"
	root := t.TempDir()
	var a, b syscall.Stat_t
	if syscall.Stat(other, &a) != nil || syscall.Stat(root, &b) != nil || a.Dev == b.Dev {
		t.Skip("no second file system (/dev/shm) beside the temporary directory")
	}
	scratch, err := os.MkdirTemp(other, "take-")
	if err != nil {
		t.Skipf("cannot write to %s: %v", other, err)
	}
	t.Cleanup(func() { os.RemoveAll(scratch) })
	s, err := filestore.Open(t.Context(), root)
	require.NoError(t, err)
	path, sum, _ := scratchFile(t, scratch, 100_000)

	w, err := s.Create(t.Context(), "7/export.gpkg")
	require.NoError(t, err)
	n, got, err := artifact.StoreFile(w, path)
	require.NoError(t, err)
	assert.Equal(t, int64(100_000), n)
	assert.Equal(t, sum, got)
	info, err := w.Commit()
	require.NoError(t, err)
	assert.Equal(t, sum, info.SHA256)
	assert.FileExists(t, path, "copied, not moved")
}

// TestTakeFileAfterDeletePrefix: a write cancelled by DeletePrefix is not
// brought back by TakeFile.
func TestTakeFileAfterDeletePrefix(t *testing.T) {
	root := t.TempDir()
	s, err := filestore.Open(t.Context(), filepath.Join(root, "artifacts"))
	require.NoError(t, err)
	path, _, _ := scratchFile(t, root, 1000)
	w, err := s.Create(t.Context(), "9/export.gpkg")
	require.NoError(t, err)
	require.NoError(t, s.DeletePrefix(t.Context(), "9/"))
	_, _, err = artifact.StoreFile(w, path)
	require.Error(t, err)
	_, err = w.Commit()
	assert.Error(t, err)
	assert.NoFileExists(t, filepath.Join(root, "artifacts", "9", "export.gpkg"))
}
