package exportserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenScratchRemovesItsOwnLeftovers: at start a server empties its
// own <scratch>/<instance> directory and leaves other servers' alone.
func TestOpenScratchRemovesItsOwnLeftovers(t *testing.T) {
	root := t.TempDir()
	mine := filepath.Join(root, "a", "task-3-attempt-1")
	theirs := filepath.Join(root, "b", "task-4-attempt-1")
	for _, d := range []string{mine, theirs} {
		require.NoError(t, os.MkdirAll(d, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(d, "raster-export-1.gpkg-journal"), []byte("x"), 0o600))
	}
	dir, err := openScratch(Config{Scratch: root, Instance: "a", DB: ":memory:"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "a"), dir)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
	assert.DirExists(t, theirs)

	// By default it lies beside the SQLite file.
	db := filepath.Join(t.TempDir(), "tasks.db")
	dir, err = openScratch(Config{DB: db, Instance: "h"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(filepath.Dir(db), scratchDir, "h"), dir)
}
