package geom

// Point is a longitude/latitude pair in degrees.
type Point struct{ X, Y float64 }

// Ring is a closed linear ring: its last point equals its first.
type Ring []Point

// Polygon is an exterior ring followed by any holes.
type Polygon []Ring

// MultiPolygon is a set of polygons; a point is in it when it is in any.
type MultiPolygon []Polygon

// BBox returns the box around every exterior ring of m; Empty for no
// polygons.
func (m MultiPolygon) BBox() BBox {
	b := EmptyBox()
	for _, p := range m {
		if len(p) == 0 {
			continue
		}
		for _, pt := range p[0] {
			b = b.Extend(pt.X, pt.Y)
		}
	}
	return b
}

// ContainsPoint reports whether (x, y) is inside one of m's polygons: inside
// its exterior ring and outside its holes. Points exactly on an edge may go
// either way.
func (m MultiPolygon) ContainsPoint(x, y float64) bool {
	for _, p := range m {
		if p.ContainsPoint(x, y) {
			return true
		}
	}
	return false
}

// ContainsPoint reports whether (x, y) is inside p's exterior ring and
// outside its holes.
func (p Polygon) ContainsPoint(x, y float64) bool {
	if len(p) == 0 || !p[0].contains(x, y) {
		return false
	}
	for _, hole := range p[1:] {
		if hole.contains(x, y) {
			return false
		}
	}
	return true
}

// contains is the even-odd ray test of (x, y) against r.
func (r Ring) contains(x, y float64) bool {
	in := false
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		if crossesRay(Point{x, y}, r[i], r[j]) {
			in = !in
		}
	}
	return in
}

// IntersectsBox reports whether m and the box b share an area or an edge.
func (m MultiPolygon) IntersectsBox(b BBox) bool {
	if b.Empty() {
		return false
	}
	return m.Intersects(MultiPolygon{{b.Ring()}})
}

// Intersects reports whether m and o overlap or touch: an edge of one
// crosses an edge of the other, or one lies inside the other.
func (m MultiPolygon) Intersects(o MultiPolygon) bool {
	if !m.BBox().Intersects(o.BBox()) {
		return false
	}
	for _, p := range m {
		for _, q := range o {
			if polygonsMeet(p, q) {
				return true
			}
		}
	}
	return false
}

// polygonsMeet tests two polygons: crossing edges, or a vertex of one in
// the other.
func polygonsMeet(p, q Polygon) bool {
	if len(p) == 0 || len(q) == 0 {
		return false
	}
	for _, rp := range p {
		for _, rq := range q {
			if ringsCross(rp, rq) {
				return true
			}
		}
	}
	if pt := p[0]; len(pt) > 0 && q.ContainsPoint(pt[0].X, pt[0].Y) {
		return true
	}
	if pt := q[0]; len(pt) > 0 && p.ContainsPoint(pt[0].X, pt[0].Y) {
		return true
	}
	return false
}

// ringsCross reports whether an edge of a meets an edge of b.
func ringsCross(a, b Ring) bool {
	for i := 1; i < len(a); i++ {
		for j := 1; j < len(b); j++ {
			if segmentsMeet(a[i-1], a[i], b[j-1], b[j]) {
				return true
			}
		}
	}
	return false
}

// segmentsMeet reports whether segments pq and rs share a point. Segments
// whose boxes do not meet share none, whatever the rounding of orient says;
// [Index] relies on that.
func segmentsMeet(p, q, r, s Point) bool {
	if max(p.X, q.X) < min(r.X, s.X) || max(r.X, s.X) < min(p.X, q.X) ||
		max(p.Y, q.Y) < min(r.Y, s.Y) || max(r.Y, s.Y) < min(p.Y, q.Y) {
		return false
	}
	d1, d2 := orient(r, s, p), orient(r, s, q)
	d3, d4 := orient(p, q, r), orient(p, q, s)
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	return (d1 == 0 && onSegment(r, s, p)) || (d2 == 0 && onSegment(r, s, q)) ||
		(d3 == 0 && onSegment(p, q, r)) || (d4 == 0 && onSegment(p, q, s))
}

// orient is the sign of the turn a→b→c: > 0 counter-clockwise.
func orient(a, b, c Point) float64 {
	return (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X)
}

// onSegment reports whether c, collinear with ab, lies within ab's box.
func onSegment(a, b, c Point) bool {
	return min(a.X, b.X) <= c.X && c.X <= max(a.X, b.X) && min(a.Y, b.Y) <= c.Y && c.Y <= max(a.Y, b.Y)
}
