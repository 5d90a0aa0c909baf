package filestore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/internal/testkit"
)

// TestFullDisk writes a file larger than a small tmpfs: the write (or the
// commit) fails with an error wrapping exporttask.ErrStorageFull and
// ENOSPC, and nothing is left. It skips where a tmpfs cannot be mounted.
func TestFullDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "disk")
	require.NoError(t, os.Mkdir(dir, 0o755))
	testkit.MountTmpfs(t, dir, "1m")
	s, err := filestore.Open(t.Context(), dir)
	require.NoError(t, err)
	w, err := s.Create(t.Context(), "1/big.gpkg")
	require.NoError(t, err)
	_, err = w.Write(bytes.Repeat([]byte{7}, 2<<20))
	if err == nil {
		_, err = w.Commit()
	}
	require.Error(t, err)
	assert.ErrorIs(t, err, exporttask.ErrStorageFull)
	assert.ErrorIs(t, err, syscall.ENOSPC)
	require.NoError(t, w.Abort())
	left, err := s.List(t.Context(), "1/")
	require.NoError(t, err)
	assert.Empty(t, left)
}
