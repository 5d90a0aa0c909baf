package dem

import (
	"errors"
	"fmt"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// projection converts between a source's projected CRS and WGS 84
// longitude/latitude in degrees; *crs.CRS is one.
type projection interface {
	ToLonLat(x, y float64) (lon, lat float64, ok bool)
	FromLonLat(lon, lat float64) (x, y float64, ok bool)
}

// warpGrid is a north-up lon/lat grid: its top-left corner, its square
// pixel size in degrees and its size in pixels.
type warpGrid struct {
	west, north float64
	res         float64
	width       int
	height      int
}

// suggestedGrid returns the grid `gdalwarp -t_srs EPSG:4326` chooses for a
// whole source of w×h pixels with geotransform gt in the CRS of p: the
// facts of GDAL's GDALSuggestedWarpOutput2. Points along the four edges of
// the source (pixel corners 0..w and 0..h, in max(20, min(100,
// round(min(w, h)/50))) steps) are transformed to lon/lat; where the
// longitude changes sign between two points of the top or bottom edge, the
// edge is bisected up to 16 times and the points met count too. The extent
// is their bounding box; the pixel size is the distance from the
// transformed top-left corner to the transformed bottom-right corner over
// the diagonal of the source in pixels, the same for both axes; the size in
// pixels is the extent over the pixel size, rounded to nearest. GDAL then
// shrinks the pixel size a little when the grid's right or bottom border
// would fall wholly outside the source, which a source whose edges all
// transform cannot cause; a source one of whose edge points does not
// transform is refused here, where GDAL would sample a grid inside it.
func suggestedGrid(p projection, gt [6]float64, w, h int) (warpGrid, error) {
	if w <= 0 || h <= 0 {
		return warpGrid{}, errors.New("the source has no pixels")
	}
	steps := int(float64(min(w, h))/50 + 0.5)
	steps = max(20, min(100, steps))
	toLonLat := func(px, py float64) (float64, float64, bool) {
		x := gt[0] + px*gt[1] + py*gt[2]
		y := gt[3] + px*gt[4] + py*gt[5]
		lon, lat, ok := p.ToLonLat(x, y)
		return lon, lat, ok && !math.IsNaN(lon) && !math.IsNaN(lat)
	}
	var minX, minY, maxX, maxY float64
	first := true
	add := func(x, y float64) {
		if first {
			minX, maxX, minY, maxY, first = x, x, y, y, false
			return
		}
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	ratio := func(i int) float64 {
		if i == steps {
			return 1
		}
		return float64(i) * (1 / float64(steps))
	}
	type point struct{ lon, lat float64 }
	edges := [4][]point{} // top, bottom, left, right
	for e := range edges {
		edges[e] = make([]point, steps+1)
		for i := 0; i <= steps; i++ {
			r := ratio(i)
			var px, py float64
			switch e {
			case 0:
				px, py = r*float64(w), 0
			case 1:
				px, py = r*float64(w), float64(h)
			case 2:
				px, py = 0, r*float64(h)
			case 3:
				px, py = float64(w), r*float64(h)
			}
			lon, lat, ok := toLonLat(px, py)
			if !ok {
				return warpGrid{}, fmt.Errorf("the source's pixel corner (%g, %g) has no longitude and latitude", px, py)
			}
			edges[e][i] = point{lon, lat}
		}
	}
	for e, pts := range edges {
		for i, pt := range pts {
			if e < 2 && i > 0 && pts[i-1].lon*pt.lon < 0 {
				// GDAL looks for the antimeridian or the prime meridian
				// between the two points by bisection, keeping the points
				// it meets.
				y := 0.0
				if e == 1 {
					y = float64(h)
				}
				inBefore, inAfter := float64(i-1)*float64(w)/float64(steps), float64(i)*float64(w)/float64(steps)
				outBefore, outAfter := pts[i-1].lon, pt.lon
				for iter := 0; iter < 16 && outBefore*outAfter < 0; iter++ {
					mid := (inBefore + inAfter) / 2
					lon, lat, ok := toLonLat(mid, y)
					if !ok {
						break
					}
					add(lon, lat)
					if outBefore*lon < 0 {
						inAfter, outAfter = mid, lon
					} else {
						inBefore, outBefore = mid, lon
					}
				}
			}
			add(pt.lon, pt.lat)
		}
	}
	tl, br := edges[0][0], edges[3][steps]
	dx, dy := br.lon-tl.lon, br.lat-tl.lat
	if dx == 0 || dy == 0 {
		dx, dy = maxX-minX, maxY-minY
	}
	res := math.Hypot(dx, dy) / math.Sqrt(float64(w)*float64(w)+float64(h)*float64(h))
	if !(res > 0) {
		return warpGrid{}, errors.New("the source's extent has no area in longitude and latitude")
	}
	pixels, lines := (maxX-minX)/res, (maxY-minY)/res
	if pixels > math.MaxInt32-1 || lines > math.MaxInt32-1 {
		return warpGrid{}, fmt.Errorf("the warped grid would be %.0f × %.0f pixels", pixels, lines)
	}
	return warpGrid{west: minX, north: maxY, res: res, width: int(pixels + 0.5), height: int(lines + 0.5)}, nil
}

// gridWindow is a part of a warpGrid: its columns [col, col+width) and rows
// [row, row+height).
type gridWindow struct {
	col, row      int
	width, height int
}

// snapEps keeps a box edge that lies on a grid line, give or take the
// rounding of its computation, from adding a column or row.
const snapEps = 1e-6

// windowOf returns the columns and rows of g that box meets, snapped
// outward to g's pixel edges and clipped to g: the window
// `gdalwarp -te` of its corners and `-tr` of g's pixel size warps. It
// reports false when box misses g or covers none of its area.
func (g warpGrid) windowOf(box geom.BBox) (gridWindow, bool) {
	if box.Empty() {
		return gridWindow{}, false
	}
	c0 := math.Floor((box.West-g.west)/g.res + snapEps)
	c1 := math.Ceil((box.East-g.west)/g.res - snapEps)
	r0 := math.Floor((g.north-box.North)/g.res + snapEps)
	r1 := math.Ceil((g.north-box.South)/g.res - snapEps)
	c0, r0 = math.Max(c0, 0), math.Max(r0, 0)
	c1, r1 = math.Min(c1, float64(g.width)), math.Min(r1, float64(g.height))
	if c1 <= c0 || r1 <= r0 {
		return gridWindow{}, false
	}
	return gridWindow{col: int(c0), row: int(r0), width: int(c1 - c0), height: int(r1 - r0)}, true
}

// west, north, east and south return the edges of window w of g in degrees:
// the -te of the GDAL reference command.
func (g warpGrid) bounds(w gridWindow) (west, south, east, north float64) {
	west = g.west + float64(w.col)*g.res
	north = g.north - float64(w.row)*g.res
	return west, north - float64(w.height)*g.res, west + float64(w.width)*g.res, north
}
