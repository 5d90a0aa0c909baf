package export_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// TestGeoPackageWALIsPartOfTheSource: tiles written to a GeoPackage's
// write-ahead log change the source: its Version differs and an export
// of the record registered before is refused. Before, such changes went
// unnoticed. An empty log (SQLite readers create one) changes nothing.
func TestGeoPackageWALIsPartOfTheSource(t *testing.T) {
	dir := t.TempDir()
	gpkg := filepath.Join(dir, "tiles.gpkg")
	require.NoError(t, os.WriteFile(gpkg, []byte("not read here"), 0o644))
	st, err := os.Stat(gpkg)
	require.NoError(t, err)
	src := &catalog.Source{Path: gpkg, Format: "GPKG", Table: "tiles", Size: st.Size(), ModTime: st.ModTime()}
	rec := catalog.Record{ID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", Domain: exporttask.DomainRaster, Source: src}
	before := src.Version()

	require.NoError(t, os.WriteFile(gpkg+catalog.WALSuffix, nil, 0o644))
	_, err = export.SourcePath(rec, "")
	require.NoError(t, err, "an empty log holds no tiles")

	require.NoError(t, os.WriteFile(gpkg+catalog.WALSuffix, []byte("new tiles"), 0o644))
	_, err = export.SourcePath(rec, "")
	require.Error(t, err)
	assert.True(t, export.IsPermanent(err))
	assert.Contains(t, err.Error(), "write-ahead log")

	size, mod, err := catalog.StatWAL(gpkg)
	require.NoError(t, err)
	again := *src
	again.WALSize, again.WALModTime = size, mod
	assert.NotEqual(t, before, again.Version(), "re-registered with its log, the source has another version")
	_, err = export.SourcePath(catalog.Record{ID: rec.ID, Domain: rec.Domain, Source: &again}, "")
	assert.NoError(t, err)
}
