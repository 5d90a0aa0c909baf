package exporttask

import "github.com/openapi-viewer/viewer/exporttask/internal/geom"

// ringPairBudget bounds the work of checking that rings are simple and
// that holes do not nest: the pairs of edges (and of holes) lying close
// together, which the checks compare, plus the cells of the checks' grids
// they are filed in, summed over a request. Real regions of interest stay
// far below it (a circle of MaxRingPositions positions takes 123,000; a
// ring with 12,000 triangular holes, 430,000 in a grid of them, 400,000 in
// a strip); a region built to be slow (a thousand or more long edges whose
// boxes all overlap, each pair needing a full test) is refused instead of
// being checked at length. BenchmarkValidateRings measures the worst case.
const ringPairBudget = 4_000_000

// ringChecker checks the shape of the polygons of one request with
// [geom.Checker] and writes what it finds as problems.
type ringChecker struct {
	geom   *geom.Checker
	points []geom.Point // the polygon's positions, reused
	rings  geom.Polygon
}

func newRingChecker() *ringChecker { return &ringChecker{geom: geom.NewChecker(ringPairBudget)} }

// polygon checks the rings of a polygon at ptr, each already found valid
// on its own (enough positions, closed, in range): each ring encloses an
// area and is simple, no two rings touch or cross, every hole lies inside
// the exterior ring and no hole lies inside another.
func (c *ringChecker) polygon(p *problems, ptr string, rings [][]Position) {
	total := 0
	for _, ring := range rings {
		total += len(ring)
	}
	if cap(c.points) < total {
		c.points = make([]geom.Point, 0, total)
	}
	pts, poly := geom.AppendRings(c.points[:0], c.rings[:0], rings)
	c.points, c.rings = pts, poly
	f := c.geom.Check(poly)
	switch f.Kind {
	case geom.Flat:
		for _, i := range f.Flat {
			p.add(index(ptr, i), "a linear ring must enclose an area: its positions are all on one line")
		}
	case geom.TooIntricate:
		p.add(ptr, "is too intricate to check: more than %d pairs of its edges lie close together; simplify it",
			ringPairBudget)
	case geom.Meets:
		e, o := f.Meet[0], f.Meet[1]
		if e.Ring == o.Ring {
			p.add(index(ptr, e.Ring), "a linear ring must not cross or touch itself: the edge from position %d to %d meets the edge from position %d to %d",
				e.From, e.To, o.From, o.To)
			return
		}
		p.add(index(ptr, o.Ring), "must not cross or touch ring %d: the edge from position %d to %d meets its edge from position %d to %d",
			e.Ring, o.From, o.To, e.From, e.To)
	case geom.HoleOutside:
		p.add(index(ptr, f.Hole), "a hole must lie inside the exterior ring (ring 0)")
	case geom.HoleInHole:
		p.add(index(ptr, f.Hole), "a hole must not lie inside another hole (ring %d)", f.Outer)
	}
}
