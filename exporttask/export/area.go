package export

import (
	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
)

// Area returns the exported area as a GeoJSON geometry, for metadata: the
// record's footprint when the request has no ROI, else the ROI's polygons
// clipped to the job's box (the ROI's box within the footprint's). A ROI
// that reaches past a footprint that is not a rectangle is clipped to its
// box only, so the geometry may then cover a little more than the data.
// A Job not made by [NewJob] with an ROI has no area: nil.
func (j Job) Area() *exporttask.Geometry {
	if j.request.ROI == nil {
		return j.record.Footprint
	}
	if j.area == nil {
		return nil // not made by NewJob: no area
	}
	var polys [][][]exporttask.Position
	for _, p := range j.area.regionOfInterest {
		var rings [][]exporttask.Position
		for i, r := range p {
			c := clipRing(r, j.box)
			if len(c) < 4 {
				if i == 0 {
					break // the exterior is outside: so are its holes
				}
				continue
			}
			rings = append(rings, c)
		}
		if len(rings) > 0 {
			polys = append(polys, rings)
		}
	}
	if len(polys) == 1 {
		return exporttask.NewPolygon(polys[0]...)
	}
	return exporttask.NewMultiPolygon(polys...)
}

// clipRing clips a closed ring to box b, one edge of b at a time
// (Sutherland–Hodgman), and returns it closed, or nil when nothing is left.
func clipRing(r geom.Ring, b geom.BBox) []exporttask.Position {
	pts := []geom.Point(r)
	if n := len(pts); n > 1 && pts[0] == pts[n-1] {
		pts = pts[:n-1]
	}
	type edge struct {
		inside func(geom.Point) bool
		cut    func(p, q geom.Point) geom.Point
	}
	atX := func(x float64) func(p, q geom.Point) geom.Point {
		return func(p, q geom.Point) geom.Point {
			return geom.Point{X: x, Y: p.Y + (q.Y-p.Y)*(x-p.X)/(q.X-p.X)}
		}
	}
	atY := func(y float64) func(p, q geom.Point) geom.Point {
		return func(p, q geom.Point) geom.Point {
			return geom.Point{X: p.X + (q.X-p.X)*(y-p.Y)/(q.Y-p.Y), Y: y}
		}
	}
	edges := []edge{
		{func(p geom.Point) bool { return p.X >= b.West }, atX(b.West)},
		{func(p geom.Point) bool { return p.X <= b.East }, atX(b.East)},
		{func(p geom.Point) bool { return p.Y >= b.South }, atY(b.South)},
		{func(p geom.Point) bool { return p.Y <= b.North }, atY(b.North)},
	}
	for _, e := range edges {
		if len(pts) == 0 {
			return nil
		}
		var out []geom.Point
		prev := pts[len(pts)-1]
		for _, p := range pts {
			switch in, prevIn := e.inside(p), e.inside(prev); {
			case in && !prevIn:
				out = append(out, e.cut(prev, p), p)
			case in:
				out = append(out, p)
			case prevIn:
				out = append(out, e.cut(prev, p))
			}
			prev = p
		}
		pts = out
	}
	if len(pts) < 3 {
		return nil
	}
	ring := make([]exporttask.Position, 0, len(pts)+1)
	for _, p := range pts {
		ring = append(ring, exporttask.Position{p.X, p.Y})
	}
	return append(ring, ring[0])
}
