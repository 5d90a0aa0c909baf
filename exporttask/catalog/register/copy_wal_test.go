package register

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// TestCopySourceTakesTheWriteAheadLog: -copy of a GeoPackage with a
// write-ahead log copies the log beside it, byte for byte and with its
// modification time (the record keeps the log's size and time, and an
// export compares them with the copy's). Before, only the main file was
// copied: the tiles written since the last checkpoint were lost.
func TestCopySourceTakesTheWriteAheadLog(t *testing.T) {
	src := t.TempDir()
	gpkg := filepath.Join(src, "tiles.gpkg")
	require.NoError(t, os.WriteFile(gpkg, []byte("main file"), 0o644))
	require.NoError(t, os.WriteFile(gpkg+catalog.WALSuffix, []byte("tiles since the checkpoint"), 0o644))
	size, mod, err := catalog.StatWAL(gpkg)
	require.NoError(t, err)

	to := filepath.Join(t.TempDir(), "tiles.gpkg")
	require.NoError(t, copySource(t.Context(), gpkg, to, size > 0))
	got, err := os.ReadFile(to + catalog.WALSuffix)
	require.NoError(t, err)
	assert.Equal(t, "tiles since the checkpoint", string(got))
	csize, cmod, err := catalog.StatWAL(to)
	require.NoError(t, err)
	assert.Equal(t, size, csize)
	assert.True(t, mod.Equal(cmod), "the copy keeps the log's modification time")
}
