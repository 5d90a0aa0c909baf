package raster_test

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// indexImagePNG writes a w×h RGB PNG (w, h at most 4,096) whose every
// pixel holds its own column and row: red the column's low 8 bits, green
// the row's, blue the column's high 4 bits and the row's high 4 bits
// above them. A warped copy's pixel tells which source pixel it took.
func indexImagePNG(t testing.TB, dir string, w, h int) string {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x>>8 | y>>8<<4), 255})
		}
	}
	path := filepath.Join(dir, "index.png")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, m))
	require.NoError(t, f.Close())
	return path
}

// sourcePixel decodes the source pixel an indexImagePNG pixel names;
// ok is false where the pixel is clear.
func sourcePixel(p []byte) (x, y int, ok bool) {
	if p[3] == 0 {
		return 0, 0, false
	}
	return int(p[0]) | int(p[2]&15)<<8, int(p[1]) | int(p[2]>>4)<<8, true
}

// pixelsAt decodes the tiles of level z of a tile set, by tile; a tile
// missing is nil.
func pixelsAt(t *testing.T, tiles map[tileKey][]byte, z int64, keys map[tileKey]bool) map[tileKey]*image.NRGBA {
	t.Helper()
	out := map[tileKey]*image.NRGBA{}
	for k, b := range tiles {
		if k.z == z {
			out[k] = decodeRGBA(t, b)
			keys[k] = true
		}
	}
	return out
}

// TestImageryPixelsAgainstGDALWarp exports, at its finest level, a source
// whose pixels name their own column and row, in UTM north and south and
// in Web Mercator, and compares the source pixel each output pixel took
// with the one GDAL's pipeline (alignedReference) took:
//   - with gdalwarp -et 0 (every pixel centre transformed exactly): the
//     same source pixel everywhere, and the same pixels clear;
//   - with gdalwarp's default approximate transformer (each row of a warp
//     chunk interpolated linearly between exactly transformed points while
//     the error stays within 0.125 source pixel): where the two differ,
//     GDAL's pixel is next to ours (at most one column and one row away),
//     as a centre within GDAL's error of a source pixel's edge lands on the
//     other side of it; a pixel clear on one side only is one whose source
//     pixel lies on the image's border; and such pixels are few (the share
//     is logged; in Web Mercator a row's coordinates are linear in
//     longitude, so GDAL's interpolation is exact there and none differ).
func TestImageryPixelsAgainstGDALWarp(t *testing.T) {
	const w, h = 1200, 900
	cases := []struct {
		name string
		geo  []string
		// approxShare is the most pixels GDAL's default warp may place in
		// another source pixel than ours, a share of the pixels with data.
		approxShare float64
	}{
		{"utm north", []string{"-a_srs", "EPSG:32636", "-a_ullr", "640000", "3500000", "652000", "3491000"}, 0.05},
		{"utm south", []string{"-a_srs", "EPSG:32736", "-a_ullr", "300000", "7400000", "312000", "7391000"}, 0.05},
		{"web mercator", []string{"-a_srs", "EPSG:3857", "-a_ullr", "3840000", "3700000", "3852000", "3691000"}, 0},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			require.NoError(t, os.MkdirAll(sub, 0o755))
			src := filepath.Join(sub, "src.tif")
			gdal(t, "gdal_translate", append(append([]string{"-q"}, c.geo...), "-co", "COMPRESS=DEFLATE", "-co", "TILED=YES",
				indexImagePNG(t, sub, w, h), src)...)
			rec := inspect(t, catalog.Source{Path: src})
			z := int64(rec.MaxZoom)

			out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"tileFormat": "PNG"}}))
			keys := map[tileKey]bool{}
			got := pixelsAt(t, readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG)), z, keys)
			exact := pixelsAt(t, alignedReference(t, sub, "exact", src, false, rec.MaxZoom, rec.MaxZoom, true), z, keys)
			approx := pixelsAt(t, alignedReference(t, sub, "approx", src, false, rec.MaxZoom, rec.MaxZoom, false), z, keys)
			require.NotEmpty(t, got)

			var data, exactOff, approxOff, approxFar, approxEdge, approxInside int
			clearTile := image.NewNRGBA(image.Rect(0, 0, 256, 256))
			pix := func(m map[tileKey]*image.NRGBA, k tileKey) []byte {
				if p, ok := m[k]; ok {
					return p.Pix
				}
				return clearTile.Pix
			}
			for k := range keys {
				g, e, a := pix(got, k), pix(exact, k), pix(approx, k)
				for i := 0; i < len(g); i += 4 {
					gx, gy, gok := sourcePixel(g[i : i+4])
					ex, ey, eok := sourcePixel(e[i : i+4])
					ax, ay, aok := sourcePixel(a[i : i+4])
					if gok || eok || aok {
						data++
					}
					if gok != eok || gx != ex || gy != ey {
						exactOff++
					}
					switch {
					case gok && aok:
						if gx != ax || gy != ay {
							approxOff++
						}
						if gx-ax > 1 || ax-gx > 1 || gy-ay > 1 || ay-gy > 1 {
							approxFar++
						}
					case gok != aok:
						approxOff++
						approxEdge++
						x, y := gx, gy
						if aok {
							x, y = ax, ay
						}
						if x > 0 && x < w-1 && y > 0 && y < h-1 {
							approxInside++
						}
					}
				}
			}
			t.Logf("level %d, %d pixels with data: %d take another source pixel than gdalwarp -et 0's; "+
				"%d (%.3f%%) another than gdalwarp's default (%d clear on one side only), %d of them more than one pixel away",
				z, data, exactOff, approxOff, 100*float64(approxOff)/float64(max(data, 1)), approxEdge, approxFar)
			require.Positive(t, data)
			assert.Zero(t, exactOff, "pixels whose source pixel differs from gdalwarp -et 0's")
			assert.Zero(t, approxFar, "pixels whose source pixel is more than one pixel from gdalwarp's default's")
			assert.Zero(t, approxInside, "pixels clear on one side only whose source pixel is not on the image's border")
			assert.LessOrEqual(t, float64(approxOff), c.approxShare*float64(data), "pixels whose source pixel differs from gdalwarp's default's")
		})
	}
}
