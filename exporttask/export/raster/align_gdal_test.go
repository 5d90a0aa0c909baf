package raster_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// tmsReader writes a GDAL WMS description that reads the gdal2tiles TMS
// directory dir (levels up to z, geodetic grid of two tiles at level 0,
// four bands) as one raster, so GDAL itself reads the source of a TMS
// record.
func tmsReader(t testing.TB, dir string, z int) string {
	t.Helper()
	xml := fmt.Sprintf(`<GDAL_WMS><Service name="TMS"><ServerUrl>file://%s/${z}/${x}/${y}.png</ServerUrl></Service>
<DataWindow><UpperLeftX>-180</UpperLeftX><UpperLeftY>90</UpperLeftY><LowerRightX>180</LowerRightX><LowerRightY>-90</LowerRightY>
<TileLevel>%d</TileLevel><TileCountX>2</TileCountX><TileCountY>1</TileCountY><YOrigin>bottom</YOrigin></DataWindow>
<Projection>EPSG:4326</Projection><BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY><BandsCount>4</BandsCount></GDAL_WMS>`,
		dir, z)
	path := dir + ".xml"
	require.NoError(t, os.WriteFile(path, []byte(xml), 0o644))
	return path
}

// cut runs gdal_translate -projwin over box (west, north, east, south) on
// the dataset that input names (a path, after any open options) and returns
// the geotransform GDAL gave the cut and its raw pixels.
func cut(t testing.TB, input []string, box [4]float64, name string) ([]float64, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), name+".img")
	args := []string{"-q", "-of", "ENVI", "-projwin"}
	for _, v := range box {
		args = append(args, fmt.Sprintf("%.17g", v))
	}
	args = append(args, input...)
	gdal(t, "gdal_translate", append(args, out)...)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return gdaltest.Info(t, out).GeoTransform, b
}

// onGrid asserts that v lies on the pixel grid of step anchored at origin.
func onGrid(t testing.TB, v, origin, step float64, what string) {
	t.Helper()
	n := (v - origin) / step
	assert.InDelta(t, math.Round(n), n, 1e-6, "%s %.17g is %.9f pixels from the grid", what, v, n)
}

// TestExportOverlaysSource: GDAL reads a RASTER export where it reads
// its source. The export's geotransform is on the grid of its finest level,
// and a cut of export and source over the same box gives the same origin
// and the same pixels, for a GeoPackage, a TMS directory and an imagery
// GeoTIFF source (on the finest level's grid), over a ROI whose edges are
// off the pixel grid.
func TestExportOverlaysSource(t *testing.T) {
	dir := t.TempDir()
	img := makeImage(t, dir, 512)
	gpkg := makeGPKG(t, dir, "align", img)
	tms := makeTiles(t, dir, "tms", img, "-p", "geodetic", "--tmscompatible")
	// An imagery GeoTIFF on the pixel grid of the GeoPackage's finest
	// level (GDAL cuts it from the tiles): rendered at that level with
	// nearest sampling, the export's pixels are the source's own.
	aligned := filepath.Join(dir, "aligned.tif")
	gdal(t, "gdal_translate", "-q", "-oo", "USE_TILE_EXTENT=YES", "-of", "GTiff", "-co", "COMPRESS=DEFLATE", "-co", "TILED=YES", gpkg, aligned)
	roi := square(34.3137, 31.4213, 34.6071, 31.7029)
	box := [4]float64{34.3519, 31.6543, 34.5482, 31.4611} // inside the ROI

	for _, c := range []struct {
		name, path string
		reader     func(rec catalog.Record) []string // what GDAL opens to read the source
	}{
		// GDAL writes the image's own extent to gpkg_contents, off the
		// tiles' pixel grid, and reads its own GeoPackage up to half a
		// pixel off: the tiles where they are on the grid are the truth.
		{"GPKG", gpkg, func(catalog.Record) []string { return []string{"-oo", "USE_TILE_EXTENT=YES", gpkg} }},
		{"TMS", tms, func(rec catalog.Record) []string { return []string{tmsReader(t, tms, rec.MaxZoom)} }},
		{"GeoTIFF imagery", aligned, func(catalog.Record) []string { return []string{aligned} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := inspect(t, catalog.Source{Path: c.path})
			out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{ROI: roiOf(roi)}))
			path := artifactPath(t, out, arts, exporttask.ArtifactGPKG)

			info := gdaltest.Info(t, path)
			gt := info.GeoTransform
			require.Len(t, gt, 6)
			pixel := 180 / math.Ldexp(1, rec.MaxZoom) / 256
			assert.InDelta(t, pixel, gt[1], pixel*1e-9)
			assert.InDelta(t, -pixel, gt[5], pixel*1e-9)
			onGrid(t, gt[0], -180, pixel, "west")
			onGrid(t, gt[3], 90, pixel, "north")
			// Snapped outward: the export still covers the ROI.
			assert.LessOrEqual(t, gt[0], 34.3137)
			assert.GreaterOrEqual(t, gt[3], 31.7029)
			assert.GreaterOrEqual(t, gt[0]+float64(info.Size[0])*gt[1], 34.6071)
			assert.LessOrEqual(t, gt[3]+float64(info.Size[1])*gt[5], 31.4213)

			wantGT, want := cut(t, c.reader(rec), box, "source")
			gotGT, got := cut(t, []string{path}, box, "export")
			require.Len(t, gotGT, 6)
			for i := range wantGT { // gdalinfo -json prints 15 digits
				assert.InDelta(t, wantGT[i], gotGT[i], pixel*1e-6, "the cuts' geotransforms: %v, %v", wantGT, gotGT)
			}
			require.Equal(t, len(want), len(got))
			diff := 0
			for i := range want {
				if want[i] != got[i] {
					diff++
				}
			}
			assert.Zero(t, diff, "samples of the export that differ from the source's (of %d)", len(want))
			assert.False(t, strings.Trim(string(want), "\x00") == "", "the cut holds data")
		})
	}
}
