package exporttask

import "math"

// ringPairBudget bounds the work of checking that rings are simple and
// that holes do not nest: the pairs of edges (and of holes) lying close
// together, which the checks compare, plus the cells of the checks' grids
// they are filed in (see boxPairs), summed over a request. Real regions of
// interest stay far below it (a circle of MaxRingPositions positions takes
// 123,000; a ring with 12,000 triangular holes, 430,000 in a grid of them,
// 400,000 in a strip); a region built to be slow (a thousand or more long
// edges whose boxes all overlap, each pair needing a full test) is refused
// instead of being checked at length. BenchmarkValidateRings measures the
// worst case.
const ringPairBudget = 4_000_000

// ringChecker checks the shape of the polygons of one request.
type ringChecker struct {
	budget int // pairs of edges still to be compared
	edges  []edge
}

// edge is the segment from position from of ring to the next distinct
// position, to; a and b are their coordinates.
type edge struct {
	ring, from, to int
	last           bool // the ring's closing edge, adjacent to its first
	a, b           [2]float64
	minX, maxX     float64
	minY, maxY     float64
}

func newRingChecker() *ringChecker { return &ringChecker{budget: ringPairBudget} }

// polygon checks the rings of a polygon at ptr, each already found valid
// on its own (enough positions, closed, in range): each ring encloses an
// area and is simple, no two rings touch or cross, every hole lies inside
// the exterior ring and no hole lies inside another.
func (c *ringChecker) polygon(p *problems, ptr string, rings [][]Position) {
	total := 0
	for _, ring := range rings {
		total += len(ring)
	}
	if cap(c.edges) < total {
		c.edges = make([]edge, 0, total)
	}
	c.edges = c.edges[:0]
	bad := false
	for i, ring := range rings {
		n := len(c.edges)
		c.addRing(i, ring)
		if flat(c.edges[n:]) {
			p.add(index(ptr, i), "a linear ring must enclose an area: its positions are all on one line")
			bad = true
		}
	}
	if bad || !c.simple(p, ptr) {
		return
	}
	// A simple ring that is not flat encloses an area: no need to check
	// that its signed area is not zero.
	c.holes(p, ptr, rings)
}

// flat reports whether a ring's edges lie on one line (or are fewer than
// three), so that it encloses no area.
func flat(edges []edge) bool {
	if len(edges) < 3 {
		return true
	}
	if signedArea(edges) != 0 {
		return false
	}
	a, b := edges[0].a, edges[0].b
	for _, e := range edges[1:] {
		if orient(a, b, e.b) != 0 {
			return false
		}
	}
	return true
}

// addRing appends the edges of ring i, leaving out repeated positions.
func (c *ringChecker) addRing(i int, ring []Position) {
	start := len(c.edges)
	prev := 0
	for j := 1; j < len(ring); j++ {
		if ring[j][0] == ring[prev][0] && ring[j][1] == ring[prev][1] {
			continue
		}
		c.edges = append(c.edges, newEdge(i, prev, j, ring[prev], ring[j]))
		prev = j
	}
	if n := len(c.edges); n > start {
		c.edges[n-1].last = true
	}
}

func newEdge(ring, from, to int, a, b Position) edge {
	e := edge{ring: ring, from: from, to: to, a: [2]float64{a[0], a[1]}, b: [2]float64{b[0], b[1]}}
	e.minX, e.maxX = math.Min(a[0], b[0]), math.Max(a[0], b[0])
	e.minY, e.maxY = math.Min(a[1], b[1]), math.Max(a[1], b[1])
	return e
}

// signedArea is twice the planar area of a ring's edges (shoelace), in
// square degrees, positive counterclockwise.
func signedArea(edges []edge) float64 {
	s := 0.0
	for _, e := range edges {
		s += e.a[0]*e.b[1] - e.b[0]*e.a[1]
	}
	return s
}

// simple reports whether no two edges meet other than adjacent edges of a
// ring at their shared position. When some do, it records one meeting:
// the one whose edges come first in the polygon (by ring, then position),
// so that the report does not depend on the order of the search. It
// compares only edges whose boxes overlap (see boxPairs).
func (c *ringChecker) simple(p *problems, ptr string) bool {
	edges := c.edges
	var first [2]*edge
	ok := boxPairs(len(edges), func(i int) (float64, float64, float64, float64) {
		e := &edges[i]
		return e.minX, e.minY, e.maxX, e.maxY
	}, &c.budget, func(a, b int) bool {
		e, o := &edges[a], &edges[b]
		if !meet(o, e) {
			return true
		}
		if before(o, e) {
			e, o = o, e
		}
		if first[0] == nil || before(e, first[0]) || e == first[0] && before(o, first[1]) {
			first = [2]*edge{e, o}
		}
		return true
	})
	if !ok {
		p.add(ptr, "is too intricate to check: more than %d pairs of its edges lie close together; simplify it",
			ringPairBudget)
		return false
	}
	if first[0] != nil {
		reportMeeting(p, ptr, first[0], first[1])
		return false
	}
	return true
}

// before orders edges by ring, then by position in the ring.
func before(e, o *edge) bool {
	return e.ring < o.ring || e.ring == o.ring && e.from < o.from
}

// adjacent reports whether e and o follow each other in one ring.
func adjacent(e, o *edge) bool {
	if e.ring != o.ring {
		return false
	}
	return e.to == o.from || o.to == e.from || e.last && o.from == 0 || o.last && e.from == 0
}

// meet reports whether edges e and o have a point in common that they may
// not share: any point for edges that are not adjacent; for adjacent ones,
// more than their shared position (the ring turns back on itself).
func meet(e, o *edge) bool {
	if adjacent(e, o) {
		// Order them so that e ends where o starts: a -> b == o.a -> o.b.
		if o.to == e.from || o.last && e.from == 0 {
			e, o = o, e
		}
		turn := orient(e.a, e.b, o.b)
		back := (e.b[0]-e.a[0])*(o.b[0]-o.a[0]) + (e.b[1]-e.a[1])*(o.b[1]-o.a[1])
		return turn == 0 && back < 0
	}
	o1, o2 := orient(e.a, e.b, o.a), orient(e.a, e.b, o.b)
	o3, o4 := orient(o.a, o.b, e.a), orient(o.a, o.b, e.b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return o1 == 0 && within(e, o.a) || o2 == 0 && within(e, o.b) ||
		o3 == 0 && within(o, e.a) || o4 == 0 && within(o, e.b)
}

// orient is the sign of the turn a -> b -> c: positive to the left,
// negative to the right, zero on a line.
func orient(a, b, c [2]float64) float64 {
	v := (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// within reports whether q, on the line of e, lies on e.
func within(e *edge, q [2]float64) bool {
	return e.minX <= q[0] && q[0] <= e.maxX && e.minY <= q[1] && q[1] <= e.maxY
}

// reportMeeting records that edges e and o meet.
func reportMeeting(p *problems, ptr string, e, o *edge) {
	if e.ring > o.ring || e.ring == o.ring && e.from > o.from {
		e, o = o, e
	}
	if e.ring == o.ring {
		p.add(index(ptr, e.ring), "a linear ring must not cross or touch itself: the edge from position %d to %d meets the edge from position %d to %d",
			e.from, e.to, o.from, o.to)
		return
	}
	p.add(index(ptr, o.ring), "must not cross or touch ring %d: the edge from position %d to %d meets its edge from position %d to %d",
		e.ring, o.from, o.to, e.from, e.to)
}
