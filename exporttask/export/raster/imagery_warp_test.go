package raster_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
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
//     the error stays within 0.125 source pixel): every pixel where the two
//     differ has its exact centre within 0.125 pixel of the edge between
//     GDAL's source pixel and ours (or of the image's outline, where one
//     side is clear), so the interpolation's error explains it; in Web
//     Mercator, where a row's coordinates are linear in longitude and
//     GDAL's interpolation is exact, none differ. The share that differs
//     is logged.
func TestImageryPixelsAgainstGDALWarp(t *testing.T) {
	const gdalMaxError = 0.125 // gdalwarp's default -et, in source pixels
	abs := func(v int) int { return max(v, -v) }
	const w, h = 800, 600
	cases := []struct {
		name string
		epsg int
		ullr [4]float64 // the source's west, north, east, south in its CRS: 15 m pixels
	}{
		{"utm north", 32636, [4]float64{640000, 3500000, 652000, 3491000}},
		{"utm south", 32736, [4]float64{300000, 7400000, 312000, 7391000}},
		{"web mercator", 3857, [4]float64{3840000, 3700000, 3852000, 3691000}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			require.NoError(t, os.MkdirAll(sub, 0o755))
			src := filepath.Join(sub, "src.tif")
			u := c.ullr
			gdal(t, "gdal_translate", "-q", "-a_srs", fmt.Sprintf("EPSG:%d", c.epsg), "-a_ullr", fmt.Sprint(u[0]), fmt.Sprint(u[1]),
				fmt.Sprint(u[2]), fmt.Sprint(u[3]), "-co", "COMPRESS=DEFLATE", "-co", "TILED=YES", indexImagePNG(t, sub, w, h), src)
			proj, err := crs.FromEPSG(c.epsg)
			require.NoError(t, err)
			rec := inspect(t, catalog.Source{Path: src})
			z := int64(rec.MaxZoom)
			// at is the source coordinate, in pixels, of the centre of
			// pixel i of tile k, exactly transformed.
			p := 180.0 / 256 / float64(int64(1)<<z)
			at := func(k tileKey, i int) (float64, float64) {
				lon := -180 + (float64(k.col*256)+float64(i%256)+0.5)*p
				lat := 90 - (float64(k.row*256)+float64(i/256)+0.5)*p
				x, y, ok := proj.FromLonLat(lon, lat)
				require.True(t, ok)
				return (x - u[0]) / ((u[2] - u[0]) / w), (y - u[1]) / ((u[3] - u[1]) / h)
			}
			// near reports whether coordinate v lies within GDAL's
			// default error of the edge e between two pixels.
			near := func(v float64, e int) bool { return math.Abs(v-float64(e)) <= gdalMaxError+1e-9 }

			out, arts := exportTo(t, job(t, rec, exporttask.CreateRequest{Parameters: map[string]any{"tileFormat": "PNG"}}))
			keys := map[tileKey]bool{}
			got := pixelsAt(t, readTiles(t, artifactPath(t, out, arts, exporttask.ArtifactGPKG)), z, keys)
			exact := pixelsAt(t, alignedReference(t, sub, "exact", src, false, rec.MaxZoom, rec.MaxZoom, true), z, keys)
			approx := pixelsAt(t, alignedReference(t, sub, "approx", src, false, rec.MaxZoom, rec.MaxZoom, false), z, keys)
			require.NotEmpty(t, got)

			var data, exactOff, approxOff, approxEdge, unexplained int
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
					if gok == aok && gx == ax && gy == ay {
						continue
					}
					approxOff++
					fx, fy := at(k, i/4)
					if gok && aok { // each coordinate that differs crossed one edge
						if (gx != ax && !(abs(gx-ax) == 1 && near(fx, max(gx, ax)))) ||
							(gy != ay && !(abs(gy-ay) == 1 && near(fy, max(gy, ay)))) {
							unexplained++
						}
						continue
					}
					approxEdge++ // the centre crossed the image's outline
					if !near(fx, 0) && !near(fx, w) && !near(fy, 0) && !near(fy, h) {
						unexplained++
					}
				}
			}
			t.Logf("level %d, %d pixels with data: %d take another source pixel than gdalwarp -et 0's; "+
				"%d (%.3f%%) another than gdalwarp's default (%d clear on one side only), %d of them not within %g pixel of the edge between",
				z, data, exactOff, approxOff, 100*float64(approxOff)/float64(max(data, 1)), approxEdge, unexplained, gdalMaxError)
			require.Positive(t, data)
			assert.Zero(t, exactOff, "pixels whose source pixel differs from gdalwarp -et 0's")
			assert.Zero(t, unexplained, "pixels whose source pixel differs from gdalwarp's default's farther than its error allows")
			if c.epsg == 3857 {
				assert.Zero(t, approxOff, "in Web Mercator, pixels whose source pixel differs from gdalwarp's default's")
			}
		})
	}
}
