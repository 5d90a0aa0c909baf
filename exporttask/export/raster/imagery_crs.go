package raster

import (
	"fmt"
	"math"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/geotiff"
)

// projected sets up a source in a CRS other than EPSG:4326 (see package
// crs): its footprint is the image's extent transformed with densified
// edges, its resolution the one gdalwarp -t_srs EPSG:4326 would choose
// (the extent's diagonal in degrees over the image's diagonal in pixels),
// and each output pixel centre is transformed into it at export. A CRS
// the engine cannot transform is refused with the gdalwarp command that
// makes the file acceptable.
func (s *imagery) projected(reproject string) error {
	c, err := crs.FromGeoKeys(s.tif.Geo)
	if err != nil {
		return &export.SourceError{File: s.path, Problem: strings.TrimPrefix(err.Error(), "crs: "), Fix: reproject, Err: err}
	}
	lv := s.img.Levels[0]
	minX, maxY := s.gt[0], s.gt[3]
	maxX, minY := minX+float64(lv.Width)*s.gt[1], maxY+float64(lv.Height)*s.gt[5]
	ring, box, err := crs.Footprint(c, minX, minY, maxX, maxY, 0)
	if err != nil {
		return &export.SourceError{File: s.path, Problem: "its extent cannot be transformed to longitude/latitude (" +
			strings.TrimPrefix(err.Error(), "crs: ") + ")", Fix: reproject, Err: err}
	}
	s.box = box.Intersect(gridBox)
	s.res = math.Hypot(box.Width(), box.Height()) / math.Hypot(float64(lv.Width), float64(lv.Height))
	if s.box.Empty() || !(s.res > 0) {
		return &export.SourceError{File: s.path, Problem: fmt.Sprintf("its extent in longitude/latitude (%v) is empty", box), Fix: reproject}
	}
	s.lonLat = c.FromLonLat
	s.ring = ring
	return nil
}

// approxError is the largest error, in source pixels, of the linear
// interpolation of a row's source coordinates between exactly transformed
// points (gdalwarp's default is 0.125; -et 0 transforms every point).
const approxError = 1e-4

// edgeMargin is how near a source pixel's edge, in source pixels, an
// interpolated coordinate must lie for its point to be transformed
// exactly after all: ten times approxError, so that every pixel takes
// the source pixel an exact transform gives it (as gdalwarp -et 0 does),
// while only about 4 in 1,000 points pay for an exact transform.
const edgeMargin = 10 * approxError

// The states of a point of a row in rowApprox.
const (
	pointFailed       = iota // the transform failed
	pointInterpolated        // interpolated, within approxError of exact
	pointExact               // transformed exactly
)

// sampleProjected fills w.px and w.py for a source in another CRS: the
// sampling points of each output row (lons, lats: samplePoints) are
// transformed to the source's CRS
// with the same result as transforming each exactly. The row's ends and
// middle are transformed exactly, the rest interpolated linearly where
// the middle is within approxError of exact, else each half again (as
// gdalwarp's approximate transformer does, with a much tighter error);
// an interpolated point within edgeMargin of a source pixel's edge, where
// the interpolation's error could change the pixel it falls in, is then
// transformed exactly.
func (rd *renderer) sampleProjected(w *tileWork, lv *geotiff.Level, x0, dx, y0, dy float64, lons, lats *[TileSize]float64) {
	var fx, fy [TileSize]float64
	var state [TileSize]uint8
	at := func(i int, lat float64) (float64, float64, bool) {
		x, y, good := rd.src.lonLat(lons[i], lat)
		return (x - x0) / dx, (y - y0) / dy, good
	}
	for j := range TileSize {
		lat := lats[j]
		rowApprox(at, lons[:], lat, 0, TileSize-1, fx[:], fy[:], state[:])
		for i := range TileSize {
			if state[i] == pointInterpolated && (nearEdge(fx[i]) || nearEdge(fy[i])) {
				x, y, good := at(i, lat)
				fx[i], fy[i], state[i] = x, y, pointExact
				if !good {
					state[i] = pointFailed
				}
			}
			k := j*TileSize + i
			w.px[k], w.py[k] = -1, -1
			if state[i] == pointFailed {
				continue
			}
			x, y := pixelOf(fx[i], lv.Width), pixelOf(fy[i], lv.Height)
			if x >= 0 && y >= 0 {
				w.px[k], w.py[k] = x, y
			}
		}
	}
}

// nearEdge reports whether the source coordinate v (in pixels) lies
// within edgeMargin of a pixel's edge.
func nearEdge(v float64) bool {
	f := v - math.Floor(v)
	return f < edgeMargin || f > 1-edgeMargin
}

// rowApprox fills fx, fy and state (pointFailed, pointInterpolated or
// pointExact) for points a..b of a row, point i at longitude lons[i]
// (increasing); interpolation is linear in longitude.
func rowApprox(at func(i int, lat float64) (float64, float64, bool), lons []float64, lat float64, a, b int, fx, fy []float64, state []uint8) {
	xa, ya, oka := at(a, lat)
	xb, yb, okb := at(b, lat)
	set := func(i int, x, y float64, good bool) {
		fx[i], fy[i], state[i] = x, y, pointFailed
		if good {
			state[i] = pointExact
		}
	}
	set(a, xa, ya, oka)
	set(b, xb, yb, okb)
	var fill func(a, b int, xa, ya, xb, yb float64)
	fill = func(a, b int, xa, ya, xb, yb float64) {
		if b-a < 2 {
			return
		}
		m := (a + b) / 2
		xm, ym, okm := at(m, lat)
		set(m, xm, ym, okm)
		t := (lons[m] - lons[a]) / (lons[b] - lons[a])
		if okm && math.Abs(xa+(xb-xa)*t-xm) <= approxError && math.Abs(ya+(yb-ya)*t-ym) <= approxError {
			for i := a + 1; i < b; i++ {
				if i == m {
					continue
				}
				u := (lons[i] - lons[a]) / (lons[b] - lons[a])
				fx[i], fy[i], state[i] = xa+(xb-xa)*u, ya+(yb-ya)*u, pointInterpolated
			}
			return
		}
		fill(a, m, xa, ya, xm, ym)
		fill(m, b, xm, ym, xb, yb)
	}
	if oka && okb {
		fill(a, b, xa, ya, xb, yb)
		return
	}
	for i := a + 1; i < b; i++ { // an end failed: every point exactly
		x, y, good := at(i, lat)
		set(i, x, y, good)
	}
}
