package geom

import "math"

// Checker checks the shape of polygons: each ring encloses an area and is
// simple, no two rings touch or cross, every hole lies inside the exterior
// ring and no hole lies inside another. It compares only edges (and holes)
// lying close together, and takes each comparison from a budget shared by
// every polygon it checks, so that a region built to be slow is refused
// instead of being checked at length.
type Checker struct {
	budget int // pairs of edges still to be compared
	edges  []ringEdge
}

// NewChecker returns a Checker that compares at most budget pairs of edges
// and of holes, plus the cells of its grids they are filed in (see
// boxPairs), over all the polygons it checks.
func NewChecker(budget int) *Checker { return &Checker{budget: budget} }

// Edge names an edge of a polygon: the segment of ring Ring from position
// From to the next distinct position, To (indices into the ring as given,
// repeated positions left out).
type Edge struct {
	Ring, From, To int
}

// Fault is what [Checker.Check] found wrong with a polygon; its zero
// value, Kind [Sound], is a polygon of the right shape.
type Fault struct {
	Kind FaultKind
	// Flat lists the rings whose positions all lie on one line, by index
	// (Kind Flat).
	Flat []int
	// Meet is the first pair of edges that meet, by ring then position:
	// Meet[0] comes before Meet[1] (Kind Meets).
	Meet [2]Edge
	// Hole is the first hole found outside the exterior ring (Kind
	// HoleOutside) or inside another hole, Outer (Kind HoleInHole).
	Hole, Outer int
}

// FaultKind says what is wrong with a polygon.
type FaultKind int

// The faults [Checker.Check] reports, one per polygon, checked in this
// order.
const (
	Sound        FaultKind = iota // nothing wrong
	Flat                          // a ring encloses no area
	TooIntricate                  // the budget ran out
	Meets                         // two edges meet
	HoleOutside                   // a hole is outside the exterior ring
	HoleInHole                    // a hole lies inside another
)

// ringEdge is the segment from position from of ring to the next distinct
// position, to; a and b are their coordinates.
type ringEdge struct {
	ring, from, to int
	last           bool // the ring's closing edge, adjacent to its first
	a, b           Point
	minX, maxX     float64
	minY, maxY     float64
}

// Check checks the rings of polygon p, each closed and of at least four
// positions.
func (c *Checker) Check(p Polygon) Fault {
	total := 0
	for _, ring := range p {
		total += len(ring)
	}
	if cap(c.edges) < total {
		c.edges = make([]ringEdge, 0, total)
	}
	c.edges = c.edges[:0]
	var f Fault
	for i, ring := range p {
		n := len(c.edges)
		c.addRing(i, ring)
		if flat(c.edges[n:]) {
			f.Flat = append(f.Flat, i)
		}
	}
	if len(f.Flat) > 0 {
		f.Kind = Flat
		return f
	}
	if f = c.simple(); f.Kind != Sound {
		return f
	}
	// A simple ring that is not flat encloses an area: no need to check
	// that its signed area is not zero.
	return c.holes(p)
}

// flat reports whether a ring's edges lie on one line (or are fewer than
// three), so that it encloses no area.
func flat(edges []ringEdge) bool {
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
func (c *Checker) addRing(i int, ring Ring) {
	start := len(c.edges)
	prev := 0
	for j := 1; j < len(ring); j++ {
		if ring[j] == ring[prev] {
			continue
		}
		c.edges = append(c.edges, newEdge(i, prev, j, ring[prev], ring[j]))
		prev = j
	}
	if n := len(c.edges); n > start {
		c.edges[n-1].last = true
	}
}

func newEdge(ring, from, to int, a, b Point) ringEdge {
	e := ringEdge{ring: ring, from: from, to: to, a: a, b: b}
	e.minX, e.maxX = math.Min(a.X, b.X), math.Max(a.X, b.X)
	e.minY, e.maxY = math.Min(a.Y, b.Y), math.Max(a.Y, b.Y)
	return e
}

// signedArea is twice the planar area of a ring's edges (shoelace), in
// square degrees, positive counterclockwise.
func signedArea(edges []ringEdge) float64 {
	s := 0.0
	for _, e := range edges {
		s += e.a.X*e.b.Y - e.b.X*e.a.Y
	}
	return s
}

// simple finds whether two edges meet other than adjacent edges of a ring
// at their shared position. When some do, it reports one meeting: the one
// whose edges come first in the polygon (by ring, then position), so that
// the report does not depend on the order of the search. It compares only
// edges whose boxes overlap (see boxPairs).
func (c *Checker) simple() Fault {
	edges := c.edges
	var first [2]*ringEdge
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
			first = [2]*ringEdge{e, o}
		}
		return true
	})
	if !ok {
		return Fault{Kind: TooIntricate}
	}
	if first[0] == nil {
		return Fault{}
	}
	e, o := first[0], first[1]
	return Fault{Kind: Meets, Meet: [2]Edge{{e.ring, e.from, e.to}, {o.ring, o.from, o.to}}}
}

// before orders edges by ring, then by position in the ring.
func before(e, o *ringEdge) bool {
	return e.ring < o.ring || e.ring == o.ring && e.from < o.from
}

// adjacent reports whether e and o follow each other in one ring.
func adjacent(e, o *ringEdge) bool {
	if e.ring != o.ring {
		return false
	}
	return e.to == o.from || o.to == e.from || e.last && o.from == 0 || o.last && e.from == 0
}

// meet reports whether edges e and o, whose boxes overlap, have a point in
// common that they may not share: any point for edges that are not
// adjacent; for adjacent ones, more than their shared position (the ring
// turns back on itself).
func meet(e, o *ringEdge) bool {
	if adjacent(e, o) {
		// Order them so that e ends where o starts: a -> b == o.a -> o.b.
		if o.to == e.from || o.last && e.from == 0 {
			e, o = o, e
		}
		turn := orient(e.a, e.b, o.b)
		back := (e.b.X-e.a.X)*(o.b.X-o.a.X) + (e.b.Y-e.a.Y)*(o.b.Y-o.a.Y)
		return turn == 0 && back < 0
	}
	return segmentsMeet(e.a, e.b, o.a, o.b)
}
