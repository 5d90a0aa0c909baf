package register_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

// TestAddWritesTheRasterSelectionIndex: catalog add of a GeoPackage
// (referenced, and copied) writes the record's selection index beside its
// manifest, so that the first create after it reads no tiles; the
// estimate from it is the one a record without it gets.
func TestAddWritesTheRasterSelectionIndex(t *testing.T) {
	srcDir := t.TempDir()
	require.NoError(t, raster.WriteDemoSource(srcDir, catalog.Record{ID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
		Domain: exporttask.DomainRaster, Footprint: jobtest.DemoFootprint(), MinZoom: 5, MaxZoom: 8}))
	src := filepath.Join(srcDir, raster.SourceName)
	for _, copied := range []bool{false, true} {
		root := t.TempDir()
		rec, err := register.Add(t.Context(), root, src, register.Options{Domain: exporttask.DomainRaster, Copy: copied})
		require.NoError(t, err)
		index := filepath.Join(rec.Location, raster.IndexName)
		require.FileExists(t, index, "copy %v", copied)

		j := jobtest.Job(t, rec, jobtest.Triangle())
		withIndex, err := raster.New(raster.Options{}).Estimate(t.Context(), j)
		require.NoError(t, err)
		st, err := os.Stat(index)
		require.NoError(t, err)
		require.NoError(t, os.Remove(index))
		without, err := raster.New(raster.Options{}).Estimate(t.Context(), j)
		require.NoError(t, err)
		assert.Equal(t, withIndex, without)
		again, err := os.Stat(index)
		require.NoError(t, err, "the estimate writes the index again")
		assert.Equal(t, st.Size(), again.Size())
	}
}
