package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// TestReplacedSourceIsANewExport: after "catalog add -replace" with other
// data, the same request is a new export made from the new data, not a
// replay of the task made from the old data (the source's version is part
// of the dedup key). Before, the old COMPLETED task came back.
func TestReplacedSourceIsANewExport(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	asc := filepath.Join(srcDir, "elevation.asc")
	tif := filepath.Join(srcDir, "elevation.tif")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Int16", asc, tif)
	const id = "5e0b6c1a-7d2f-4b3e-8a91-0c4d2e6f8a17"
	rec := addRecord(t, "-domain", "DEM", "-id", id, tif)

	s := startExampleServer(t)
	roi := roiBox(34.3, 31.2, 34.7, 31.6)
	first, _ := s.export(t, rec, roi)
	require.Equal(t, exporttask.StatusCompleted, first.Status, "errorReason: %s", first.ErrorReason)

	// Other heights, same file name, same size.
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	b, err := os.ReadFile(asc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(asc, append([]byte{}, replaceHeights(b)...), 0o644))
	gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Int16", asc, tif)
	rec = addRecord(t, "-domain", "DEM", "-id", id, "-replace", tif)

	again, dir := s.export(t, rec, roi)
	assert.NotEqual(t, first.ID, again.ID, "a new export, not the old one replayed")
	require.Equal(t, exporttask.StatusCompleted, again.Status, "errorReason: %s", again.ErrorReason)
	require.NotEmpty(t, dir)
}

// replaceHeights turns the grid's "1" digits into "2": other heights,
// the same layout.
func replaceHeights(b []byte) []byte {
	header := 0
	for n := 0; n < 6 && header < len(b); header++ {
		if b[header] == '\n' {
			n++
		}
	}
	for i := header; i < len(b); i++ {
		if b[i] == '1' {
			b[i] = '2'
		}
	}
	return b
}

// TestInfiniteAndNaNNoDataExport: DEMs whose GDAL_NODATA is inf, -inf or
// nan (common GDAL output) register and export, and METADATA writes the
// nodata as the STAC raster extension allows ("inf", "-inf", "nan").
// Before, the export failed, its errorReason naming Go's JSON encoder.
func TestInfiniteAndNaNNoDataExport(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	asc := filepath.Join(srcDir, "elevation.asc")
	writeASCIIGrid(t, asc, 100, 100, 34, 31, 0.01)
	s := startExampleServer(t)
	roi := roiBox(34.3, 31.2, 34.7, 31.6)
	for _, nd := range []string{"inf", "-inf", "nan"} {
		t.Run(nd, func(t *testing.T) {
			tif := filepath.Join(srcDir, "nodata"+nd+".tif")
			gdaltest.Run(t, translate, "-q", "-of", "GTiff", "-a_srs", "EPSG:4326", "-ot", "Float32",
				"-a_nodata", nd, asc, tif)
			rec := addRecord(t, "-domain", "DEM", tif)
			task, dir := s.export(t, rec, roi)
			require.Equal(t, exporttask.StatusCompleted, task.Status, "errorReason: %s", task.ErrorReason)
			var item struct {
				Properties map[string]any `json:"properties"`
			}
			var metadata string
			for _, a := range task.Artifacts {
				if a.Type == exporttask.ArtifactMetadata {
					metadata = filepath.Join(dir, a.Name)
				}
			}
			b, err := os.ReadFile(metadata)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &item))
			assert.Equal(t, nd, item.Properties["exporttask:noData"], "STAC's text for %s", nd)
			// GDAL reads the exported file's nodata as the source's.
			var model string
			for _, a := range task.Artifacts {
				if a.Type == exporttask.ArtifactModel {
					model = filepath.Join(dir, a.Name)
				}
			}
			info := gdaltest.Run(t, gdaltest.Require(t, "gdalinfo"), model)
			assert.Contains(t, info, "NoData Value="+nd+"\n")
		})
	}
}
