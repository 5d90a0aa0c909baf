package raster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// TestSampleProjectedIsExact renders the source pixels of tiles of levels
// 10 to 13 over a UTM 36N image of 10 m pixels (and its overviews of
// 20, 40, 80 m) and checks every pixel against its centre transformed
// exactly: the same pixel everywhere, although most centres are
// interpolated. It logs, and bounds, how many centres are transformed
// exactly: the rows' exactly transformed points and the interpolated
// centres near a pixel's edge (docs/exporttask.md, "RASTER: imagery").
func TestSampleProjectedIsExact(t *testing.T) {
	c, err := crs.FromEPSG(32636)
	require.NoError(t, err)
	calls := 0
	src := &imagery{lonLat: func(lon, lat float64) (float64, float64, bool) {
		calls++
		return c.FromLonLat(lon, lat)
	}}
	rd := &renderer{src: src}
	w := &tileWork{px: make([]int32, tilePixels), py: make([]int32, tilePixels)}
	const x0, y0 = 600000.0, 3600000.0 // the image's corner
	for z := 10; z <= 13; z++ {
		dx := 10.0 * float64(int(1)<<(13-z)) // the overview of the level's resolution
		lv := &geotiff.Level{Width: int(160000 / dx), Height: int(160000 / dx)}
		p := pixelDegrees(z)
		col, row := int64((34.6+180)/(256*p)), int64((90-31.9)/(256*p)) // a tile inside the image
		west, north := -180+float64(col*TileSize)*p, 90-float64(row*TileSize)*p
		calls = 0
		var lons, lats [TileSize]float64
		for i := range TileSize {
			lons[i], lats[i] = west+(float64(i)+0.5)*p, north-(float64(i)+0.5)*p
		}
		rd.sampleProjected(w, lv, x0, dx, y0, -dx, &lons, &lats)
		exact := calls
		off := 0
		for j := range TileSize {
			for i := range TileSize {
				x, y, ok := c.FromLonLat(west+(float64(i)+0.5)*p, north-(float64(j)+0.5)*p)
				require.True(t, ok)
				px, py := pixelOf((x-x0)/dx, lv.Width), pixelOf((y-y0)/-dx, lv.Height)
				require.True(t, px >= 0 && py >= 0, "level %d: the tile lies inside the image", z)
				if k := j*TileSize + i; w.px[k] != px || w.py[k] != py {
					off++
				}
			}
		}
		t.Logf("level %d: %d of %d centres transformed exactly (%.2f%%)", z, exact, tilePixels, 100*float64(exact)/tilePixels)
		assert.Zero(t, off, "level %d: pixels that differ from the exact transform's", z)
		assert.Less(t, exact, tilePixels*3/10, "level %d: centres transformed exactly", z)
	}
}
