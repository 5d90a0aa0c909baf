package raster_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "image/jpeg" // the tiles of the exports and references

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// imageryPNG writes a w×h PNG of the kind ("rgb", "rgba", "gray",
// "palette"): smooth colour ramps and sinusoids with a few sharp edges;
// rgba has a clear band along the left and a half-clear square; gray has
// value 0 (the tests' nodata) along the left.
func imageryPNG(t testing.TB, dir, kind string, w, h int) string {
	t.Helper()
	var m image.Image
	wave := func(x, y int) float64 { return math.Sin(float64(x)/41)*math.Cos(float64(y)/29)*0.5 + 0.5 }
	switch kind {
	case "gray":
		g := image.NewGray(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				v := uint8(1 + 200*wave(x, y) + float64(y)*50/float64(h))
				if x < w/10 {
					v = 0
				}
				g.SetGray(x, y, color.Gray{v})
			}
		}
		m = g
	case "palette":
		var pal color.Palette
		for i := range 32 {
			pal = append(pal, color.RGBA{uint8(i * 8), uint8(255 - i*8), uint8(i * 5), 255})
		}
		p := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for y := range h {
			for x := range w {
				p.SetColorIndex(x, y, uint8(wave(x, y)*31))
			}
		}
		m = p
	default:
		n := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				c := color.NRGBA{uint8(x * 255 / w), uint8(255 * wave(x, y)), uint8(y * 255 / h), 255}
				if kind == "rgba" && x < w/8 {
					c.A = 0
				}
				if kind == "rgba" && x > w/2 && x < w/2+60 && y > h/2 && y < h/2+60 {
					c.A = 128
				}
				n.SetNRGBA(x, y, c)
			}
		}
		m = n
	}
	path := filepath.Join(dir, kind+".png")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, m))
	require.NoError(t, f.Close())
	return path
}

// decodeRGBA decodes a tile as non-premultiplied RGBA.
func decodeRGBA(t testing.TB, b []byte) *image.NRGBA {
	t.Helper()
	m, _, err := image.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	n := image.NewNRGBA(m.Bounds())
	draw.Draw(n, n.Rect, m, m.Bounds().Min, draw.Src)
	return n
}

// referenceGPKG runs the GDAL pipeline the issue names on src (gdalwarp
// -t_srs EPSG:4326, gdal_translate -of GPKG -co
// TILING_SCHEME=InspireCRS84Quad -co RESAMPLING=NEAREST, gdaladdo -r
// nearest with the factors it chooses) and returns the levels it makes.
// Its pixels are not the reference: GDAL's GeoPackage writer anchors the
// raster at the corner of the data's extent, not on the tile grid, and
// places its pixels in the tiles rounded, up to half a pixel off (the
// shift issue 26 reports). So the tiles compared are alignedReference's:
// the same pipeline after a warp aligned on the finest level's pixels,
// every pixel centre transformed exactly (-et 0), with gdaladdo's factors
// down to the same coarsest level (a palette expanded to RGB first).
func referenceGPKG(t testing.TB, dir, src string, alpha, palette bool) (tiles map[tileKey][]byte, minZoom, maxZoom int) {
	t.Helper()
	warped := filepath.Join(dir, "warped.tif")
	gdal(t, "gdalwarp", "-q", "-t_srs", "EPSG:4326", "-r", "near", src, warped)
	plain := filepath.Join(dir, "plain.gpkg")
	gdal(t, "gdal_translate", "-q", "-of", "GPKG", "-co", "TILING_SCHEME=InspireCRS84Quad", "-co", "RESAMPLING=NEAREST", warped, plain)
	gdal(t, "gdaladdo", "-q", "-r", "nearest", plain)
	minZoom, maxZoom = levelsOf(readTable(t, plain, "plain"))

	if palette { // a warp adding alpha to a palette would make it gray and alpha
		rgb := filepath.Join(dir, "expanded.tif")
		gdal(t, "gdal_translate", "-q", "-expand", "rgb", src, rgb)
		src = rgb
	}
	return alignedReference(t, dir, "ref", src, alpha, minZoom, maxZoom, true), minZoom, maxZoom
}

// alignedReference runs GDAL's pipeline on src with the warp aligned on
// the pixels of level maxZoom (gdalwarp -t_srs EPSG:4326 -r near -tr RES
// RES -tap, alpha kept or added; with -et 0 when exact, else with
// gdalwarp's default approximate transformer, -et 0.125), then
// gdal_translate -of GPKG -co TILING_SCHEME=InspireCRS84Quad -co
// RESAMPLING=NEAREST -co TILE_FORMAT=PNG and gdaladdo -r nearest down to
// minZoom, and returns the tiles, written to dir/name.gpkg.
func alignedReference(t testing.TB, dir, name, src string, alpha bool, minZoom, maxZoom int, exact bool) map[tileKey][]byte {
	t.Helper()
	res := fmt.Sprint(180.0 / 256 / float64(int64(1)<<maxZoom))
	aligned := filepath.Join(dir, name+".tif")
	args := []string{"-q", "-t_srs", "EPSG:4326", "-r", "near", "-tr", res, res, "-tap"}
	if exact {
		args = append(args, "-et", "0")
	}
	if !alpha {
		args = append(args, "-dstalpha")
	}
	gdal(t, "gdalwarp", append(args, src, aligned)...)
	ref := filepath.Join(dir, name+".gpkg")
	gdal(t, "gdal_translate", "-q", "-of", "GPKG", "-co", "TILING_SCHEME=InspireCRS84Quad", "-co", "RESAMPLING=NEAREST",
		"-co", "TILE_FORMAT=PNG", aligned, ref)
	if maxZoom > minZoom {
		addo := []string{"-q", "-r", "nearest", "-oo", "TILE_FORMAT=PNG", ref}
		for f := 2; f <= 1<<(maxZoom-minZoom); f *= 2 {
			addo = append(addo, fmt.Sprint(f))
		}
		gdal(t, "gdaladdo", addo...)
	}
	return readTable(t, ref, name)
}

// tileDiff is how an export's tiles differ from the reference's at one
// level.
type tileDiff struct {
	maxDiff int     // the largest difference of a colour sample where both hold data, or of alpha
	over    int     // pixels where such a difference is more than the limit
	mad     float64 // the mean absolute difference of the samples (of pixels not clear on both sides)
	edge    int     // pixels clear on one side only
	data    int     // pixels holding data on either side
}

// compareTiles compares an export's tiles with the reference's, decoded:
// a tile only one side holds counts as clear everywhere on the other;
// pixels clear on both sides are equal whatever their colour. A pixel
// clear on one side only (at the data's edge, where a pixel centre lies
// on the source's outline within the precision of the transforms) counts
// in edge, and its colour is not compared.
func compareTiles(t *testing.T, got, want map[tileKey][]byte, limit int) map[int64]*tileDiff {
	t.Helper()
	out := map[int64]*tileDiff{}
	sum, n := map[int64]float64{}, map[int64]float64{}
	keys := map[tileKey]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	clear := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	for k := range keys {
		g, w := clear, clear
		if b, ok := got[k]; ok {
			g = decodeRGBA(t, b)
		}
		if b, ok := want[k]; ok {
			w = decodeRGBA(t, b)
		}
		d := out[k.z]
		if d == nil {
			d = &tileDiff{}
			out[k.z] = d
		}
		for i := 0; i < len(g.Pix); i += 4 {
			ga, wa := g.Pix[i+3], w.Pix[i+3]
			if ga == 0 && wa == 0 {
				n[k.z] += 4 // equal samples of the tiles
				continue
			}
			d.data++
			far := false
			for c := range 4 {
				v := int(g.Pix[i+c]) - int(w.Pix[i+c])
				v = max(v, -v)
				sum[k.z] += float64(v)
				n[k.z]++
				if (ga == 0) != (wa == 0) {
					continue
				}
				if v > 50 && os.Getenv("DBG") != "" && d.maxDiff <= 50 {
					t.Logf("tile %v pixel %d,%d band %d: got %v want %v", k, i/4%256, i/4/256, c, g.Pix[i:i+4], w.Pix[i:i+4])
				}
				d.maxDiff = max(d.maxDiff, v)
				far = far || v > limit
			}
			if far {
				d.over++
			}
			if (ga == 0) != (wa == 0) {
				d.edge++
			}
		}
	}
	for z, d := range out {
		d.mad = sum[z] / max(n[z], 1)
	}
	return out
}

// TestImageryAgainstGDALPipeline registers GeoTIFFs of imagery GDAL wrote
// (an RGB JPEG-compressed COG, RGBA, paletted, gray with nodata) as
// RASTER records, in EPSG:4326, UTM north and south, Web Mercator, the
// Israeli TM grid and Lambert-93, exports each whole, and compares the
// tiles with the GDAL pipeline's
// (warped with -et 0, see referenceGPKG): the same levels; on the finest
// level, every sample within 1 (the JPEG sources' too: their blocks decode
// to libjpeg-turbo's samples) and no pixel clear on one side only; a mean
// absolute difference of at most 2 on the overview levels.
// TestImageryPixelsAgainstGDALWarp compares the source pixels taken with
// those of gdalwarp's default.
func TestImageryAgainstGDALPipeline(t *testing.T) {
	dir := t.TempDir()
	lonLat := []string{"-a_srs", "EPSG:4326", "-a_ullr", "34.1", "31.9", "34.7", "31.45"}
	utm := []string{"-a_srs", "EPSG:32636", "-a_ullr", "640000", "3500000", "652000", "3491000"}       // 10 m, north
	utmSouth := []string{"-a_srs", "EPSG:32736", "-a_ullr", "300000", "7400000", "312000", "7391000"}  // 10 m, south
	mercator := []string{"-a_srs", "EPSG:3857", "-a_ullr", "3840000", "3700000", "3852000", "3691000"} // 10 m
	israelTM := []string{"-a_srs", "EPSG:2039", "-a_ullr", "180000", "660000", "192000", "651000"}     // 10 m, national TM
	lambert93 := []string{"-a_srs", "EPSG:2154", "-a_ullr", "650000", "6870000", "662000", "6861000"}  // 10 m, LCC 2SP
	rgb := []string{"-of", "COG", "-co", "COMPRESS=JPEG", "-b", "1", "-b", "2", "-b", "3"}
	cases := []struct {
		name, kind string
		geo, args  []string
	}{
		{"rgb jpeg cog", "rgb", lonLat, rgb},
		{"rgba", "rgba", lonLat, []string{"-co", "COMPRESS=DEFLATE", "-co", "TILED=YES"}},
		{"palette", "palette", lonLat, []string{"-co", "COMPRESS=LZW"}},
		{"gray nodata", "gray", lonLat, []string{"-of", "COG", "-a_nodata", "0"}},
		{"utm rgb jpeg cog", "rgb", utm, rgb},
		{"utm rgb", "rgb", utm, []string{"-co", "COMPRESS=DEFLATE", "-co", "TILED=YES"}},
		{"utm south rgba", "rgba", utmSouth, []string{"-co", "COMPRESS=DEFLATE", "-co", "TILED=YES"}},
		{"web mercator gray nodata", "gray", mercator, []string{"-of", "COG", "-a_nodata", "0"}},
		{"israeli tm rgb jpeg cog", "rgb", israelTM, rgb},
		{"lambert-93 rgba", "rgba", lambert93, []string{"-co", "COMPRESS=DEFLATE", "-co", "TILED=YES"}},
		{"utm palette", "palette", utm, []string{"-co", "COMPRESS=LZW"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			require.NoError(t, os.MkdirAll(sub, 0o755))
			png := imageryPNG(t, sub, c.kind, 1200, 900)
			src := filepath.Join(sub, "src.tif")
			gdal(t, "gdal_translate", append(append(append([]string{"-q"}, c.geo...), c.args...), png, src)...)

			rec := inspect(t, catalog.Source{Path: src})
			require.Equal(t, raster.FormatGTiff, rec.Source.Format)
			want, lo, hi := referenceGPKG(t, sub, src, c.kind == "rgba", c.kind == "palette")
			assert.Equal(t, [2]int{lo, hi}, [2]int{rec.MinZoom, rec.MaxZoom}, "the levels GDAL makes")

			out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"tileFormat": "PNG"}}))
			got := readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG))
			require.NotEmpty(t, got)
			const limit = 1 // JPEG blocks too: they decode as GDAL decodes them
			diffs := compareTiles(t, got, want, limit)
			for z := rec.MinZoom; z <= rec.MaxZoom; z++ {
				d := diffs[int64(z)]
				require.NotNil(t, d, "level %d", z)
				t.Logf("level %d: max difference %d (%d pixels over the limit), mean absolute difference %.3f, %d of %d pixels clear on one side only",
					z, d.maxDiff, d.over, d.mad, d.edge, d.data)
				if z == rec.MaxZoom {
					// Every pixel takes the source pixel GDAL's exact
					// warp gives it, in every CRS.
					assert.LessOrEqual(t, d.maxDiff, limit, "level %d", z)
					assert.Zero(t, d.over, "level %d: pixels off by more than %d", z, limit)
					assert.Zero(t, d.edge, "level %d: pixels clear on one side only", z)
				} else {
					assert.LessOrEqual(t, d.mad, 2.0, "level %d", z)
				}
			}
			item := readItem(t, out, arts)
			assert.Equal(t, float64(len(got)), item.Properties["exporttask:tiles"], "the metadata counts the tiles written")
		})
	}
}

// TestImageryTileFormats exports the same imagery as JPEG, PNG and AUTO:
// every tile has the format asked for (AUTO: JPEG where opaque), and the
// parameter is refused on other values.
func TestImageryTileFormats(t *testing.T) {
	dir := t.TempDir()
	png := imageryPNG(t, dir, "rgba", 2400, 1800)
	src := filepath.Join(dir, "src.tif")
	gdal(t, "gdal_translate", "-q", "-a_srs", "EPSG:4326", "-a_ullr", "34.1", "31.9", "34.7", "31.45", png, src)
	rec := inspect(t, catalog.Source{Path: src, Format: "GTiff"})
	assert.Equal(t, "PNG", rec.Source.TileFormat)
	for _, f := range []string{"JPEG", "PNG", "AUTO"} {
		out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"tileFormat": f}}))
		kinds := map[string]int{}
		for k, b := range readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG)) {
			_, kind, err := image.DecodeConfig(bytes.NewReader(b))
			require.NoError(t, err, fmt.Sprint(k))
			kinds[kind]++
		}
		switch f {
		case "JPEG":
			assert.Equal(t, []string{"jpeg"}, keysOf(kinds))
		case "PNG":
			assert.Equal(t, []string{"png"}, keysOf(kinds))
		case "AUTO":
			assert.Equal(t, []string{"jpeg", "png"}, keysOf(kinds), "opaque tiles JPEG, the left edge's PNG")
			// Rendered tiles are estimated at the imagery speed, not at
			// the speed given for copied ones (here one tile a second).
			est, err := raster.New(raster.Options{TilesPerSecond: 1}).Estimate(t.Context(),
				job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"tileFormat": f}}))
			require.NoError(t, err)
			tiles := kinds["jpeg"] + kinds["png"]
			want := int64(math.Ceil(float64(tiles)/raster.DefaultImageryTilesPerSecond)) + 1
			assert.GreaterOrEqual(t, est.Time, want, "%d tiles rendered", tiles)
			assert.LessOrEqual(t, est.Time, want+1, "%d tiles rendered", tiles)
		}
	}
	_, err := raster.New(raster.Options{}).Estimate(t.Context(), job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"tileFormat": "GIF"}}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tileFormat")
}

func keysOf(m map[string]int) []string {
	var out []string
	for _, k := range []string{"jpeg", "png"} {
		if m[k] > 0 {
			out = append(out, k)
		}
	}
	return out
}

// TestImageryRefusals registers GeoTIFFs a RASTER record cannot render:
// each refusal names the problem and a command that fixes it.
func TestImageryRefusals(t *testing.T) {
	dir := t.TempDir()
	png := imageryPNG(t, dir, "rgb", 64, 48)
	mk := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		gdal(t, "gdal_translate", append(append([]string{"-q"}, args...), png, p)...)
		return p
	}
	geo := []string{"-a_ullr", "34", "32", "35", "31"}
	cases := []struct {
		path string
		want []string
	}{
		{mk("float.tif", append([]string{"-a_srs", "EPSG:4326", "-ot", "Float32", "-b", "1"}, geo...)...),
			[]string{"not imagery", "8-bit", "register it with -domain DEM"}},
		{mk("swiss.tif", "-a_srs", "EPSG:2056", "-a_ullr", "2600000", "1200000", "2601000", "1199000"),
			[]string{"EPSG:2056", "is not one this engine can transform", "gdalwarp -t_srs EPSG:4326"}},
		{mk("nocrs.tif", geo...), []string{"no CRS", "gdal_edit.py -a_srs EPSG:4326"}},
		{mk("zstd.tif", append([]string{"-a_srs", "EPSG:4326", "-co", "COMPRESS=ZSTD"}, geo...)...),
			[]string{"ZSTD compression", "gdal_translate"}},
	}
	for _, c := range cases {
		_, err := raster.Inspect(t.Context(), catalog.Source{Path: c.path})
		require.Error(t, err, c.path)
		for _, w := range c.want {
			assert.Contains(t, err.Error(), w, c.path)
		}
	}
}

// TestImageryRegisters adds a UTM COG of JPEG-compressed RGB imagery with
// catalog add's Go API, as a RASTER record: the record names a GTiff
// source with the AUTO tile format, the levels GDAL would make, and a
// footprint within one source pixel of what gdalinfo reports as its
// WGS 84 extent.
func TestImageryRegisters(t *testing.T) {
	dir := t.TempDir()
	png := imageryPNG(t, dir, "rgb", 1200, 900)
	src := filepath.Join(dir, "ortho.tif")
	gdal(t, "gdal_translate", "-q", "-a_srs", "EPSG:32636", "-a_ullr", "640000", "3500000", "652000", "3491000",
		"-of", "COG", "-co", "COMPRESS=JPEG", png, src)
	rec, err := register.Add(t.Context(), filepath.Join(t.TempDir(), "catalog"), src, register.Options{Domain: exporttask.DomainRaster})
	require.NoError(t, err)
	require.NotNil(t, rec.Source)
	assert.Equal(t, raster.FormatGTiff, rec.Source.Format)
	assert.Equal(t, raster.TileAuto, rec.Source.TileFormat)
	assert.Equal(t, [2]int{10, 13}, [2]int{rec.MinZoom, rec.MaxZoom}, "the levels GDAL makes of it (TestImageryAgainstGDALPipeline checks them with GDAL)")

	var ext struct {
		WGS84Extent struct {
			Coordinates [][][2]float64 `json:"coordinates"`
		} `json:"wgs84Extent"`
	}
	raw := gdaltest.Run(t, gdaltest.Require(t, "gdalinfo"), "-json", src)
	require.NoError(t, json.Unmarshal([]byte(raw), &ext))
	box := func(ring [][2]float64) [4]float64 {
		b := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		for _, p := range ring {
			b = [4]float64{min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])}
		}
		return b
	}
	var ours [][2]float64
	for _, p := range rec.Footprint.Polygons()[0][0] {
		ours = append(ours, [2]float64{p[0], p[1]})
	}
	want, got := box(ext.WGS84Extent.Coordinates[0]), box(ours)
	const pixel = 10.0 / 111000 // 10 m in degrees of latitude, less than in longitude
	for i := range want {
		assert.InDelta(t, want[i], got[i], pixel, "footprint %v, gdalinfo's wgs84Extent %v", got, want)
	}
}
