package geom

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Index answers the questions of [MultiPolygon.ContainsPoint] and
// [MultiPolygon.IntersectsBox] with the same answers, at a cost that grows
// with the edges near the query rather than with all of the multipolygon's
// edges. It files the edges of every ring in horizontal bands (for points
// and rows of points) and in a grid of cells (for boxes).
//
// An Index is safe for concurrent use. It reads the multipolygon it was
// built on, which must not change afterwards.
type Index struct {
	box    BBox     // the multipolygon's BBox (exterior rings only)
	edges  []edge   // every edge of every ring
	firsts []Point  // the first position of each polygon's exterior ring
	rings  []ringOf // the polygon of each ring
	polys  int      // the multipolygon's polygons
	// odd holds the edges and first positions with a coordinate that is
	// not finite: every query reads them.
	oddEdges, oddFirsts []int32
	bands               grid // edges that can cross a row, by latitude
	cells               grid // edges, by longitude and latitude
	points              grid // first positions, by longitude and latitude
	spanY               float64
	last                atomic.Pointer[Row]
	scratch             sync.Pool // of *scratch
}

// edge is the edge from position i-1 to position i of a ring (from the last
// position to the first for i = 0, the ring's closing edge).
type edge struct {
	prev, cur Point
	ring      int32
	closing   bool // i = 0: read by point tests, not by crossing tests
}

// ringOf is a ring's polygon, and whether it is a hole.
type ringOf struct {
	poly int32
	hole bool
}

// NewIndex indexes m.
func NewIndex(m MultiPolygon) *Index {
	ix := &Index{box: m.BBox(), polys: len(m)}
	for pi, p := range m {
		if len(p) > 0 && len(p[0]) > 0 {
			ix.firsts = append(ix.firsts, p[0][0])
		}
		for ri, r := range p {
			ring := int32(len(ix.rings))
			ix.rings = append(ix.rings, ringOf{poly: int32(pi), hole: ri > 0})
			for i := range r {
				j := i - 1
				if i == 0 {
					j = len(r) - 1
				}
				ix.edges = append(ix.edges, edge{prev: r[j], cur: r[i], ring: ring, closing: i == 0})
			}
		}
	}
	ext := EmptyBox()
	for i, e := range ix.edges {
		if !finite(e.prev) || !finite(e.cur) {
			ix.oddEdges = append(ix.oddEdges, int32(i))
			continue
		}
		ext = ext.Extend(e.prev.X, e.prev.Y).Extend(e.cur.X, e.cur.Y)
		ix.spanY += math.Abs(e.cur.Y - e.prev.Y)
	}
	for i, pt := range ix.firsts {
		if !finite(pt) {
			ix.oddFirsts = append(ix.oddFirsts, int32(i))
		}
	}
	n := len(ix.edges) - len(ix.oddEdges)
	// Bands: about one per edge, fewer when edges are tall, so that an
	// edge is filed about four times at most on average.
	nb := n
	if h := ext.Height(); ix.spanY > 0 && h > 0 {
		nb = min(nb, int(4*float64(n)*h/ix.spanY)+1)
	}
	ix.bands = newGrid(ext, 1, max(nb, 1))
	ix.bands.fill(len(ix.edges), func(i int) (BBox, bool) {
		e := ix.edges[i]
		// A horizontal edge crosses no row: see Ring.contains.
		return edgeBox(e), e.prev.Y != e.cur.Y && finite(e.prev) && finite(e.cur)
	})
	// Order each band's edges west to east at its middle latitude: edges
	// that do not cross keep that order along any row of the band, so
	// that a row's crossings come out nearly sorted.
	type keyed struct {
		x float64
		i int32
	}
	var keys []keyed
	for c := range ix.bands.ny {
		mid := ix.bands.y0 + (float64(c)+0.5)*ix.bands.ch
		band := ix.bands.items[ix.bands.start[c]:ix.bands.start[c+1]]
		keys = keys[:0]
		for _, i := range band {
			e := &ix.edges[i]
			y := min(max(mid, min(e.prev.Y, e.cur.Y)), max(e.prev.Y, e.cur.Y))
			keys = append(keys, keyed{e.cur.X + (e.prev.X-e.cur.X)*(y-e.cur.Y)/(e.prev.Y-e.cur.Y), i})
		}
		slices.SortFunc(keys, func(a, b keyed) int { return cmp.Compare(a.x, b.x) })
		for k, key := range keys {
			band[k] = key.i
		}
	}
	crossable := func(i int) (BBox, bool) {
		e := ix.edges[i]
		return edgeBox(e), !e.closing && finite(e.prev) && finite(e.cur)
	}
	// Cells about as many as the edges, fewer when long edges would be
	// filed in too many of them (a star of long spikes): at most about
	// eight filings an edge.
	nx, ny := cellsFor(ext, n)
	for nx*ny > 1 {
		g := newGrid(ext, nx, ny)
		if g.filings(len(ix.edges), crossable) <= 8*n+nx*ny {
			break
		}
		nx, ny = max(nx/2, 1), max(ny/2, 1)
	}
	ix.cells = newGrid(ext, nx, ny)
	ix.cells.fill(len(ix.edges), crossable)
	pb := EmptyBox()
	for _, pt := range ix.firsts {
		if finite(pt) {
			pb = pb.Extend(pt.X, pt.Y)
		}
	}
	px, py := cellsFor(pb, len(ix.firsts))
	ix.points = newGrid(pb, px, py)
	ix.points.fill(len(ix.firsts), func(i int) (BBox, bool) {
		pt := ix.firsts[i]
		return BBox{pt.X, pt.Y, pt.X, pt.Y}, finite(pt)
	})
	return ix
}

// MeanCrossings is the mean number of edges a row of points across b
// meets: the edges' latitude spans summed, over b's height. It is 0 for a
// box of no height.
func (ix *Index) MeanCrossings(b BBox) float64 {
	if h := b.Height(); h > 0 {
		return math.Min(ix.spanY/h, float64(len(ix.edges)))
	}
	return 0
}

func finite(p Point) bool {
	return !math.IsInf(p.X, 0) && !math.IsNaN(p.X) && !math.IsInf(p.Y, 0) && !math.IsNaN(p.Y)
}

func edgeBox(e edge) BBox {
	return BBox{min(e.prev.X, e.cur.X), min(e.prev.Y, e.cur.Y), max(e.prev.X, e.cur.X), max(e.prev.Y, e.cur.Y)}
}

// cellsFor returns a grid of about n/2 cells over b, square in degrees.
func cellsFor(b BBox, n int) (nx, ny int) {
	cells := max(float64(n)/2, 1)
	w, h := b.Width(), b.Height()
	if b.Empty() || !(w > 0) || !(h > 0) {
		if w > 0 {
			return int(min(cells, 4096)), 1
		}
		if h > 0 {
			return 1, int(min(cells, 4096))
		}
		return 1, 1
	}
	s := math.Sqrt(w * h / cells)
	return int(min(math.Ceil(w/s), 4096)), int(min(math.Ceil(h/s), 4096))
}

// ContainsPoint reports whether (x, y) is in the multipolygon, as
// [MultiPolygon.ContainsPoint] does.
func (ix *Index) ContainsPoint(x, y float64) bool {
	return ix.Row(y).Contains(x)
}

// Row returns the multipolygon's row at latitude y, which answers point
// queries on that row. The last row built is kept for the next call.
func (ix *Index) Row(y float64) *Row {
	if r := ix.last.Load(); r != nil && (r.y == y || r.y != r.y && y != y) {
		return r
	}
	r := ix.row(y)
	ix.last.Store(r)
	return r
}

// Row is the multipolygon along one latitude: the longitudes at which a
// point's answer changes. Point x is inside when in[k] is true, k being
// the number of xs at or below x.
type Row struct {
	y  float64
	xs []float64
	in []bool
}

// crossing is where an edge of ring ring crosses a row.
type crossing struct {
	x    float64
	ring int32
}

// scratch is what computing a row needs and drops: the crossings, and the
// rings and polygons the row meets, numbered in local and polys (ring g's
// number in the row plus one, 0 for a ring it does not meet; likewise for
// polygons).
type scratch struct {
	cs           []crossing
	rings        []ringState
	polyStates   []polyState
	local, polys []int32
}

// ringState is a ring along a row, west of the point swept.
type ringState struct {
	ring int32 // the ring's number in the multipolygon
	poly int32 // its polygon's number in the row
	hole bool
	odd  bool // inside: an odd number of crossings east of the point
}

// polyState is a polygon along a row.
type polyState struct {
	poly  int32 // the polygon's number in the multipolygon
	ext   bool
	holes int32 // holes the point is inside
}

// row computes the row at latitude y: the crossings of the edges that
// cross it, swept from west to east.
func (ix *Index) row(y float64) *Row {
	s, _ := ix.scratch.Get().(*scratch)
	if s == nil {
		s = &scratch{local: make([]int32, len(ix.rings)), polys: make([]int32, ix.polys)}
	}
	cs, rings, polys := s.cs[:0], s.rings[:0], s.polyStates[:0]
	defer func() {
		s.cs, s.rings, s.polyStates = cs[:0], rings[:0], polys[:0]
		ix.scratch.Put(s)
	}()
	add := func(i int32) {
		e := &ix.edges[i]
		a, b := e.cur, e.prev
		// Ring.contains, edge by edge: the same test and arithmetic.
		if (a.Y > y) != (b.Y > y) {
			if xc := (b.X-a.X)*(y-a.Y)/(b.Y-a.Y) + a.X; xc == xc {
				cs = append(cs, crossing{xc, e.ring})
			}
		}
	}
	if y == y && len(ix.bands.start) > 0 {
		c := ix.bands.cell(0, ix.bands.row(y))
		band := ix.bands.items[ix.bands.start[c]:ix.bands.start[c+1]]
		for _, i := range band {
			add(i)
		}
	}
	for _, i := range ix.oddEdges {
		add(i)
	}
	r := &Row{y: y, in: []bool{false}}
	if len(cs) == 0 {
		return r
	}
	r.xs = make([]float64, 0, len(cs))
	r.in = append(make([]bool, 0, len(cs)+1), false)
	for k := range cs {
		g := cs[k].ring
		l := s.local[g]
		if l == 0 {
			of := ix.rings[g]
			if s.polys[of.poly] == 0 {
				polys = append(polys, polyState{poly: of.poly})
				s.polys[of.poly] = int32(len(polys))
			}
			rings = append(rings, ringState{ring: g, poly: s.polys[of.poly] - 1, hole: of.hole})
			l = int32(len(rings))
			s.local[g] = l
		}
		cs[k].ring = l - 1
		// West of every crossing, a point is west of all of them: a ring
		// starts inside when its crossings are odd in number.
		rings[l-1].odd = !rings[l-1].odd
	}
	for _, rs := range rings {
		s.local[rs.ring] = 0
	}
	for _, p := range polys {
		s.polys[p.poly] = 0
	}
	inside := 0 // polygons the point is in
	polyIn := func(p *polyState) bool { return p.ext && p.holes == 0 }
	for _, rs := range rings {
		if rs.odd {
			p := &polys[rs.poly]
			if rs.hole {
				p.holes++
			} else {
				p.ext = true
			}
		}
	}
	for k := range polys {
		if polyIn(&polys[k]) {
			inside++
		}
	}
	r.in[0] = inside > 0
	sortCrossings(cs)
	for k := 0; k < len(cs); {
		x := cs[k].x
		// Passing crossings at x flips their rings for points at or east
		// of x (those points no longer lie west of the crossing).
		for ; k < len(cs) && cs[k].x == x; k++ {
			rs := &rings[cs[k].ring]
			p := &polys[rs.poly]
			was := polyIn(p)
			rs.odd = !rs.odd
			switch {
			case !rs.hole:
				p.ext = rs.odd
			case rs.odd:
				p.holes++
			default:
				p.holes--
			}
			if now := polyIn(p); now != was {
				if now {
					inside++
				} else {
					inside--
				}
			}
		}
		if in := inside > 0; in != r.in[len(r.in)-1] {
			r.xs = append(r.xs, x)
			r.in = append(r.in, in)
		}
	}
	return r
}

// sortCrossings sorts cs by longitude. They usually come nearly sorted
// (see NewIndex): an insertion sort does, unless it moves them too often.
func sortCrossings(cs []crossing) {
	moves := 0
	for i := 1; i < len(cs); i++ {
		c := cs[i]
		j := i
		for ; j > 0 && cs[j-1].x > c.x; j-- {
			cs[j] = cs[j-1]
		}
		cs[j] = c
		if moves += i - j; moves > 8*len(cs) {
			slices.SortFunc(cs, func(a, b crossing) int {
				switch {
				case a.x < b.x:
					return -1
				case a.x > b.x:
					return 1
				}
				return 0
			})
			return
		}
	}
}

// Mask clears inside[x] for every x whose point (x0 + x·step, y) is outside
// the multipolygon, y being the row's latitude, and leaves the others. The
// product x·step is rounded before the sum.
func (r *Row) Mask(x0, step float64, inside []bool) {
	n := len(inside)
	px := func(x int) float64 { return x0 + float64(float64(x)*step) }
	if !(step > 0) || x0 != x0 || math.IsInf(x0, 0) || math.IsInf(step, 0) {
		for x := range inside {
			if inside[x] && !r.Contains(px(x)) {
				inside[x] = false
			}
		}
		return
	}
	// Longitudes grow with x: walk the row's spans west to east, finding
	// each span's first pixel from an estimate checked against px.
	p := 0
	for k, edge := range r.xs {
		q := p
		if f := math.Ceil((edge - x0) / step); f >= float64(n) {
			q = n
		} else if f > float64(p) {
			q = int(f)
		}
		for q > p && px(q-1) >= edge {
			q--
		}
		for q < n && px(q) < edge {
			q++
		}
		if !r.in[k] {
			clear(inside[p:q])
		}
		p = q
		if p == n {
			return
		}
	}
	if !r.in[len(r.xs)] {
		clear(inside[p:])
	}
}

// Contains reports whether the point (x, y) of the row's latitude y is in
// the multipolygon.
func (r *Row) Contains(x float64) bool {
	if x != x {
		return false
	}
	return r.in[sort.Search(len(r.xs), func(k int) bool { return r.xs[k] > x })]
}

// IntersectsBox reports whether the multipolygon and b share an area or an
// edge, as [MultiPolygon.IntersectsBox] does.
func (ix *Index) IntersectsBox(b BBox) bool {
	if b.Empty() || !ix.box.Intersects(b) {
		return false
	}
	sides := b.Ring()
	// An edge crossing or touching the box's boundary (polygonsMeet's
	// ringsCross). Such an edge's box meets b: see segmentsMeet.
	meets := func(i int32) bool {
		e := ix.edges[i]
		if e.closing {
			return false
		}
		for k := 1; k < len(sides); k++ {
			if segmentsMeet(e.prev, e.cur, sides[k-1], sides[k]) {
				return true
			}
		}
		return false
	}
	// Only the cells along the box's sides can hold such an edge.
	for k := 1; k < len(sides); k++ {
		side := BBox{min(sides[k-1].X, sides[k].X), min(sides[k-1].Y, sides[k].Y), max(sides[k-1].X, sides[k].X), max(sides[k-1].Y, sides[k].Y)}
		if ix.cells.any(side, func(i int32) bool {
			e := &ix.edges[i]
			return edgeBox(*e).Intersects(side) && segmentsMeet(e.prev, e.cur, sides[k-1], sides[k])
		}) {
			return true
		}
	}
	if slices.ContainsFunc(ix.oddEdges, meets) {
		return true
	}
	// A polygon's first position inside the box (polygonsMeet's first
	// containment test), by the even-odd rule on the box's ring.
	inBox := func(i int32) bool {
		pt := ix.firsts[i]
		return sides.contains(pt.X, pt.Y)
	}
	if ix.points.any(b, func(i int32) bool { return b.ContainsPoint(ix.firsts[i].X, ix.firsts[i].Y) && inBox(i) }) ||
		slices.ContainsFunc(ix.oddFirsts, inBox) {
		return true
	}
	// The box's first corner inside a polygon (the second test).
	return ix.ContainsPoint(sides[0].X, sides[0].Y)
}

// grid files items by the cells their boxes meet: the cells of row r are
// r*nx .. r*nx+nx-1, and cell c's items are items[start[c]:start[c+1]].
type grid struct {
	x0, y0, cw, ch float64
	nx, ny         int
	start          []int32
	items          []int32
}

// newGrid returns an empty grid of nx by ny cells over b.
func newGrid(b BBox, nx, ny int) grid {
	g := grid{x0: b.West, y0: b.South, nx: nx, ny: ny}
	if b.Empty() {
		return grid{nx: 1, ny: 1}
	}
	g.cw, g.ch = b.Width()/float64(nx), b.Height()/float64(ny)
	return g
}

// col and row return the column and row of a coordinate, clamped to the
// grid; both never decrease as the coordinate grows.
func (g *grid) col(x float64) int { return clampCell(x, g.x0, g.cw, g.nx) }
func (g *grid) row(y float64) int { return clampCell(y, g.y0, g.ch, g.ny) }

func clampCell(v, v0, size float64, n int) int {
	if !(size > 0) {
		return 0
	}
	f := math.Floor((v - v0) / size)
	switch {
	case f >= float64(n-1):
		return n - 1
	case f > 0:
		return int(f)
	}
	return 0
}

func (g *grid) cell(col, row int) int { return row*g.nx + col }

// filings counts the cells fill would file items 0..n-1 in.
func (g *grid) filings(n int, box func(int) (BBox, bool)) int {
	total := 0
	for i := range n {
		if b, ok := box(i); ok {
			total += (g.col(b.East) - g.col(b.West) + 1) * (g.row(b.North) - g.row(b.South) + 1)
		}
	}
	return total
}

// fill files items 0..n-1, each by its box when filed is true.
func (g *grid) fill(n int, box func(int) (BBox, bool)) {
	count := make([]int32, g.nx*g.ny+1)
	g.each(n, box, func(c, _ int) { count[c+1]++ })
	for c := 1; c < len(count); c++ {
		count[c] += count[c-1]
	}
	g.start = slices.Clone(count)
	g.items = make([]int32, count[len(count)-1])
	g.each(n, box, func(c, i int) {
		g.items[count[c]] = int32(i)
		count[c]++
	})
}

func (g *grid) each(n int, box func(int) (BBox, bool), f func(cell, item int)) {
	for i := range n {
		b, ok := box(i)
		if !ok {
			continue
		}
		for r := g.row(b.South); r <= g.row(b.North); r++ {
			for c := g.col(b.West); c <= g.col(b.East); c++ {
				f(g.cell(c, r), i)
			}
		}
	}
}

// any reports whether f is true for an item filed in a cell that b meets:
// every item whose box meets b is among them.
func (g *grid) any(b BBox, f func(int32) bool) bool {
	if len(g.start) == 0 {
		return false
	}
	for r := g.row(b.South); r <= g.row(b.North); r++ {
		for c := g.col(b.West); c <= g.col(b.East); c++ {
			k := g.cell(c, r)
			if slices.ContainsFunc(g.items[g.start[k]:g.start[k+1]], f) {
				return true
			}
		}
	}
	return false
}

// Intersects reports whether the multipolygons of ix and o overlap or
// touch, as [MultiPolygon.Intersects] does: an edge of one meets an edge of
// the other, or a polygon's first position is inside the other. Each edge
// of the index with fewer edges is compared with the edges of the other's
// cells that its box meets.
func (ix *Index) Intersects(o *Index) bool {
	if !ix.box.Intersects(o.box) {
		return false
	}
	small, large := ix, o
	if len(small.edges) > len(large.edges) {
		small, large = large, small
	}
	for i := range small.edges {
		e := &small.edges[i]
		if e.closing {
			continue
		}
		meets := func(k int32) bool {
			f := &large.edges[k]
			return !f.closing && segmentsMeet(e.prev, e.cur, f.prev, f.cur)
		}
		if !finite(e.prev) || !finite(e.cur) {
			for k := range large.edges {
				if meets(int32(k)) {
					return true
				}
			}
			continue
		}
		b := edgeBox(*e)
		if large.cells.any(b, func(k int32) bool { return edgeBox(large.edges[k]).Intersects(b) && meets(k) }) ||
			slices.ContainsFunc(large.oddEdges, meets) {
			return true
		}
	}
	for _, pt := range ix.firsts {
		if o.ContainsPoint(pt.X, pt.Y) {
			return true
		}
	}
	for _, pt := range o.firsts {
		if ix.ContainsPoint(pt.X, pt.Y) {
			return true
		}
	}
	return false
}
