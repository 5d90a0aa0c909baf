package filestore_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/artifacttest"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
)

func TestConformance(t *testing.T) {
	artifacttest.Run(t, func(t *testing.T) artifact.Store {
		s, err := filestore.Open(t.Context(), t.TempDir())
		require.NoError(t, err)
		return s
	})
}

func TestLayout(t *testing.T) {
	dir := t.TempDir()
	s, err := filestore.Open(t.Context(), dir)
	require.NoError(t, err)
	w, err := s.Create(t.Context(), "42/export.gpkg")
	require.NoError(t, err)
	_, err = w.Write([]byte("tiles"))
	require.NoError(t, err)

	temps, err := filepath.Glob(filepath.Join(dir, "42", ".export.gpkg.*.tmp"))
	require.NoError(t, err)
	assert.Len(t, temps, 1, "the write goes to a hidden file beside its target")
	assert.NoFileExists(t, filepath.Join(dir, "42", "export.gpkg"))

	_, err = w.Commit()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "42", "export.gpkg"))
	require.NoError(t, err)
	assert.Equal(t, "tiles", string(b), "the key is the path under the directory")
	temps, err = filepath.Glob(filepath.Join(dir, "42", ".*"))
	require.NoError(t, err)
	assert.Empty(t, temps, "no temporary file after commit")
}

// TestRemoveStale leaves temporary files as a crash would and checks that
// only the idle ones are removed, by the call and by Open.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	s, err := filestore.Open(t.Context(), dir)
	require.NoError(t, err)
	crashed, err := s.Create(t.Context(), "7/a.tif")
	require.NoError(t, err)
	_, err = crashed.Write([]byte("half"))
	require.NoError(t, err)
	live, err := s.Create(t.Context(), "8/b.tif")
	require.NoError(t, err)
	defer live.Abort()

	old := time.Now().Add(-2 * filestore.StaleAfter)
	stale, err := filepath.Glob(filepath.Join(dir, "7", ".a.tif.*.tmp"))
	require.NoError(t, err)
	require.Len(t, stale, 1)
	require.NoError(t, os.Chtimes(stale[0], old, old))

	reopened, err := filestore.Open(t.Context(), dir)
	require.NoError(t, err)
	assert.NoFileExists(t, stale[0], "Open removes a temporary file idle for StaleAfter")
	fresh, err := filepath.Glob(filepath.Join(dir, "8", ".b.tif.*.tmp"))
	require.NoError(t, err)
	assert.Len(t, fresh, 1, "a live writer's file stays")

	n, err := reopened.RemoveStale(t.Context(), 0)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "RemoveStale(0) removes every temporary file")
	_, err = live.Commit()
	assert.Error(t, err, "the removed write cannot commit")
	assert.NoError(t, crashed.Abort(), "aborting a removed write is fine")
}

func TestOpenErrors(t *testing.T) {
	_, err := filestore.Open(t.Context(), "")
	assert.ErrorContains(t, err, "empty directory name")

	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = filestore.Open(t.Context(), file)
	assert.ErrorContains(t, err, "filestore:")
}

// TestDeletePrefixUncommittedLarge cancels a multi-megabyte write, which
// the suite leaves to each store.
func TestDeletePrefixUncommittedLarge(t *testing.T) {
	s, err := filestore.Open(t.Context(), t.TempDir())
	require.NoError(t, err)
	w, err := s.Create(t.Context(), "32/late")
	require.NoError(t, err)
	_, err = w.Write(make([]byte, 12<<20))
	require.NoError(t, err)
	require.NoError(t, s.DeletePrefix(t.Context(), "32/"))
	_, err = w.Commit()
	assert.Error(t, err)
	infos, err := s.List(t.Context(), "")
	require.NoError(t, err)
	assert.Empty(t, infos)
}
