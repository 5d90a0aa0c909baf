package geom

import "math"

// holes checks, for rings that neither cross nor touch, that each hole
// lies inside the exterior ring and outside every other hole.
func (c *Checker) holes(rings Polygon) Fault {
	if len(rings) < 2 {
		return Fault{}
	}
	type box struct{ minX, maxX, minY, maxY float64 }
	boxes := make([]box, len(rings))
	for i, ring := range rings {
		b := box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
		for _, q := range ring {
			b.minX, b.maxX = math.Min(b.minX, q.X), math.Max(b.maxX, q.X)
			b.minY, b.maxY = math.Min(b.minY, q.Y), math.Max(b.maxY, q.Y)
		}
		boxes[i] = b
	}
	inside := func(i, j int) bool { // ring i lies inside ring j
		bi, bj := boxes[i], boxes[j]
		if bi.minX < bj.minX || bi.maxX > bj.maxX || bi.minY < bj.minY || bi.maxY > bj.maxY {
			return false
		}
		c.budget -= len(rings[j])
		return inRing(rings[i][0], rings[j])
	}
	shell := newBandIndex(rings[0], boxes[0].minY, boxes[0].maxY, len(rings)-1)
	holes := make([]int, 0, len(rings)-1)
	for i := 1; i < len(rings); i++ {
		b := boxes[i]
		if b.minX < boxes[0].minX || b.maxX > boxes[0].maxX || b.minY < boxes[0].minY || b.maxY > boxes[0].maxY ||
			!shell.contains(rings[i][0], &c.budget) {
			return Fault{Kind: HoleOutside, Hole: i}
		}
		holes = append(holes, i)
	}
	// A hole inside another has its box inside the other's: compare the
	// holes whose boxes overlap, reporting the first hole (by index) found
	// inside another.
	bad, outer := -1, -1
	ok := boxPairs(len(holes), func(k int) (float64, float64, float64, float64) {
		b := boxes[holes[k]]
		return b.minX, b.minY, b.maxX, b.maxY
	}, &c.budget, func(a, b int) bool {
		for _, pair := range [2][2]int{{holes[a], holes[b]}, {holes[b], holes[a]}} {
			if (bad < 0 || pair[0] < bad) && inside(pair[0], pair[1]) {
				bad, outer = pair[0], pair[1]
			}
		}
		return true
	})
	if !ok {
		return Fault{Kind: TooIntricate}
	}
	if bad >= 0 {
		return Fault{Kind: HoleInHole, Hole: bad, Outer: outer}
	}
	return Fault{}
}

// bandIndex answers point-in-ring queries on a ring with many edges: its
// edges are filed in horizontal bands, so that a query reads only the
// edges of the band of its point.
type bandIndex struct {
	ring    Ring
	minY, h float64
	bands   [][]int32 // edges (from position i to i+1) crossing each band
	linear  bool      // few queries: no index, read every edge
}

// newBandIndex indexes ring, whose latitudes range from minY to maxY, for
// about queries queries.
func newBandIndex(ring Ring, minY, maxY float64, queries int) *bandIndex {
	x := &bandIndex{ring: ring, minY: minY}
	n := int(math.Sqrt(float64(len(ring))))
	if queries < 4 || n < 2 || maxY <= minY {
		x.linear = true
		return x
	}
	x.h = (maxY - minY) / float64(n)
	x.bands = make([][]int32, n)
	for i := 0; i+1 < len(ring); i++ {
		lo, hi := x.band(math.Min(ring[i].Y, ring[i+1].Y)), x.band(math.Max(ring[i].Y, ring[i+1].Y))
		for b := lo; b <= hi; b++ {
			x.bands[b] = append(x.bands[b], int32(i))
		}
	}
	return x
}

// band returns the band of latitude y.
func (x *bandIndex) band(y float64) int {
	return min(max(int((y-x.minY)/x.h), 0), len(x.bands)-1)
}

// contains reports whether q, which is not on the ring, lies inside it,
// taking the edges it reads from budget.
func (x *bandIndex) contains(q Point, budget *int) bool {
	if x.linear {
		*budget -= len(x.ring)
		return inRing(q, x.ring)
	}
	in := false
	edges := x.bands[x.band(q.Y)]
	*budget -= len(edges)
	for _, i := range edges {
		if crossesRay(q, x.ring[i], x.ring[i+1]) {
			in = !in
		}
	}
	return in
}

// crossesRay reports whether the edge from a to b crosses the ray from q
// towards increasing longitude (even-odd rule, each edge half-open in
// latitude).
func crossesRay(q, a, b Point) bool {
	return (a.Y > q.Y) != (b.Y > q.Y) && q.X < (b.X-a.X)*(q.Y-a.Y)/(b.Y-a.Y)+a.X
}

// inRing reports whether q lies inside ring (even-odd rule); q is not on
// the ring.
func inRing(q Point, ring Ring) bool {
	in := false
	for i := 0; i+1 < len(ring); i++ {
		if crossesRay(q, ring[i], ring[i+1]) {
			in = !in
		}
	}
	return in
}
