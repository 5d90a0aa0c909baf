package server_test

import (
	"bytes"
	"fmt"
	"image"
	"path/filepath"
	"testing"

	_ "image/jpeg" // the export's tiles

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// TestCatalogAddImageryThenExportOverHTTP registers a JPEG-compressed RGB
// COG in UTM with "catalog add -domain RASTER", exports a region through
// the example server over HTTP and checks the GeoPackage downloaded: tiles
// of 256×256 at every level of the record meeting the region, each JPEG
// where it is opaque, and a GeoPackage gdalinfo reads.
func TestCatalogAddImageryThenExportOverHTTP(t *testing.T) {
	translate := gdaltest.Require(t, "gdal_translate")
	t.Chdir(t.TempDir())
	srcDir := t.TempDir()
	writeGradientPNG(t, filepath.Join(srcDir, "ortho.png"), 800, 600)
	cog := filepath.Join(srcDir, "ortho.tif")
	gdaltest.Run(t, translate, "-q", "-of", "COG", "-co", "COMPRESS=JPEG", "-a_srs", "EPSG:32636",
		"-a_ullr", "640000", "3500000", "648000", "3494000", filepath.Join(srcDir, "ortho.png"), cog)
	rec := addRecord(t, "-domain", "RASTER", cog)
	require.NotNil(t, rec.Source)
	assert.Equal(t, "GTiff", rec.Source.Format)
	assert.Equal(t, "AUTO", rec.Source.TileFormat)

	s := startExampleServer(t)
	// The record's footprint is about 34.50-34.59 E, 31.57-31.62 N.
	roi := &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
		Type: exporttask.TypeFeature, Geometry: exporttask.NewPolygon([]exporttask.Position{
			{34.52, 31.58}, {34.56, 31.58}, {34.56, 31.61}, {34.52, 31.61}, {34.52, 31.58}})}}}
	task, dir := s.export(t, rec, roi)
	require.Equal(t, exporttask.StatusCompleted, task.Status, "%+v", task)
	gpkg := filepath.Join(dir, rec.ID+".gpkg")
	tiles := gpkgTiles(t, gpkg)
	require.NotEmpty(t, tiles)
	levels := map[int]bool{}
	for k, b := range tiles {
		cfg, kind, err := image.DecodeConfig(bytes.NewReader(b))
		require.NoError(t, err, k)
		assert.Equal(t, [2]int{256, 256}, [2]int{cfg.Width, cfg.Height}, k)
		assert.Contains(t, []string{"jpeg", "png"}, kind)
		var z, c, r int
		_, err = fmt.Sscanf(k, "%d/%d/%d", &z, &c, &r)
		require.NoError(t, err)
		levels[z] = true
	}
	for z := rec.MinZoom; z <= rec.MaxZoom; z++ {
		assert.True(t, levels[z], "level %d has tiles", z)
	}
	info := gdaltest.Info(t, gpkg)
	assert.Equal(t, "GPKG", info.DriverShortName)
}
