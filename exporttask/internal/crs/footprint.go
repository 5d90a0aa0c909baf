package crs

import (
	"fmt"
	"math"

	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// DefaultEdgePoints is the number of segments [Footprint] divides each
// edge into when asked for fewer than one (GDAL's
// OCTTransformBounds uses 21 points per edge; more costs little here).
const DefaultEdgePoints = 64

// Footprint transforms the box minX..maxX, minY..maxY of CRS coordinates
// to WGS 84 longitude/latitude. Each edge is divided into perEdge segments
// (DefaultEdgePoints when perEdge < 1), so the curved image of a straight
// edge is followed, not just its corners. It returns the closed ring of
// transformed points (counter-clockwise in the CRS, first point repeated
// at the end) and its bounding box; a pole inside the box extends the box
// to that pole and to all longitudes. A point that cannot be transformed,
// or a ring that crosses the antimeridian, is an error.
func Footprint(c *CRS, minX, minY, maxX, maxY float64, perEdge int) ([][2]float64, geom.BBox, error) {
	if perEdge < 1 {
		perEdge = DefaultEdgePoints
	}
	if !(minX <= maxX && minY <= maxY) {
		return nil, geom.BBox{}, fmt.Errorf("crs: footprint of an empty box (%g, %g, %g, %g)", minX, minY, maxX, maxY)
	}
	corners := [5][2]float64{{minX, minY}, {maxX, minY}, {maxX, maxY}, {minX, maxY}, {minX, minY}}
	ring := make([][2]float64, 0, 4*perEdge+1)
	box := geom.EmptyBox()
	for e := range 4 {
		a, b := corners[e], corners[e+1]
		for i := range perEdge {
			t := float64(i) / float64(perEdge)
			x, y := a[0]+(b[0]-a[0])*t, a[1]+(b[1]-a[1])*t
			lon, lat, ok := c.ToLonLat(x, y)
			if !ok {
				return nil, geom.BBox{}, fmt.Errorf("crs: the point (%g, %g) of the box cannot be transformed from %s to longitude/latitude", x, y, c)
			}
			if n := len(ring); n > 0 && math.Abs(lon-ring[n-1][0]) > 180 {
				return nil, geom.BBox{}, fmt.Errorf("crs: the box (%g, %g, %g, %g) in %s crosses the antimeridian", minX, minY, maxX, maxY, c)
			}
			ring = append(ring, [2]float64{lon, lat})
			box = box.Extend(lon, lat)
		}
	}
	ring = append(ring, ring[0])
	for _, pole := range [2]float64{90, -90} {
		if x, y, ok := c.FromLonLat(0, pole); ok && x >= minX && x <= maxX && y >= minY && y <= maxY {
			box = box.Extend(-180, pole).Extend(180, pole)
		}
	}
	return ring, box, nil
}
