package demo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// sourceIndex is the file a domain's source is checked by: none for a
// file, tileset.json for the 3D tileset.
var sourceIndex = map[exporttask.Domain]string{exporttask.Domain3D: "tileset.json"}

func TestWriteRegistersCopiedSources(t *testing.T) {
	root := filepath.Join(t.TempDir(), "catalog")
	n, err := demo.Write(root)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	recs, err := cat.List(t.Context())
	require.NoError(t, err)
	require.Len(t, recs, 3)
	byID := map[string]catalog.Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	for _, want := range demo.Records() {
		got, ok := byID[want.ID]
		require.True(t, ok, want.ID)
		assert.Equal(t, want.Domain, got.Domain)
		assert.Equal(t, want.Title, got.Title)
		assert.Equal(t, want.Footprint, got.Footprint)
		if want.Domain != exporttask.Domain3D { // a tileset's levels are its depth (see tiles3d.Inspect)
			assert.Equal(t, want.MinZoom, got.MinZoom, "levels from the data")
			assert.Equal(t, want.MaxZoom, got.MaxZoom, "levels from the data")
		}
		assert.LessOrEqual(t, got.MinZoom, got.MaxZoom)
		assert.InDelta(t, want.Resolution, got.Resolution, 1e-12, "resolution from the data")
		require.NotNil(t, got.Source)
		assert.False(t, filepath.IsAbs(got.Source.Path), "a copy, relative to the record")
		p, err := export.SourcePath(got, sourceIndex[got.Domain])
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(got.Location, got.Source.Path), p)
	}
	assert.Equal(t, "tiles", byID[demo.RasterID].Source.Table)
}

// TestWriteReplacesOutdatedRecords: a catalog written before sources were
// registered keeps working: its demo records (without a Source) are
// registered again, other records stay as they are.
func TestWriteReplacesOutdatedRecords(t *testing.T) {
	root := t.TempDir()
	for _, rec := range demo.Records() {
		require.NoError(t, catalog.WriteRecord(root, rec, func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "old-layout"), []byte("x"), 0o644)
		}))
	}
	other := demo.Records()[1]
	other.ID = "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05"
	require.NoError(t, catalog.WriteRecord(root, other, nil))
	otherManifest, err := os.ReadFile(filepath.Join(root, other.ID, catalog.ManifestName))
	require.NoError(t, err)

	n, err := demo.Write(root)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	cat, err := catalog.Open(root)
	require.NoError(t, err)
	for _, want := range demo.Records() {
		got, err := cat.Record(t.Context(), want.ID)
		require.NoError(t, err)
		assert.NotNil(t, got.Source, want.ID)
		assert.NoFileExists(t, filepath.Join(got.Location, "old-layout"))
	}
	after, err := os.ReadFile(filepath.Join(root, other.ID, catalog.ManifestName))
	require.NoError(t, err)
	assert.Equal(t, otherManifest, after, "a record that is not a demo one is left alone")

	n, err = demo.Write(root)
	require.NoError(t, err)
	assert.Zero(t, n)
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 4, "no leftovers")
}
