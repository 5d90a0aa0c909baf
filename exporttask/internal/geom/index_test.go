package geom

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomMultiPolygon draws a multipolygon for the property tests. With
// onGrid, every position is on a grid of quarter units between 0 and 8, so
// that query points fall exactly on vertices and edges and edges are often
// horizontal or vertical; rings may cross themselves and each other, and
// some are degenerate: unclosed, of one or two positions, repeated
// positions, empty.
func randomMultiPolygon(rng *rand.Rand, onGrid bool) MultiPolygon {
	coord := func() float64 {
		if onGrid {
			return float64(rng.IntN(33)) / 4
		}
		return rng.Float64() * 8
	}
	ring := func(cx, cy, r float64) Ring {
		switch rng.IntN(12) {
		case 0:
			return nil
		case 1:
			return Ring{{coord(), coord()}}
		case 2:
			p := Point{coord(), coord()}
			return Ring{p, {coord(), coord()}, p}
		case 3: // anywhere, possibly crossing itself, possibly unclosed
			n := 3 + rng.IntN(6)
			out := make(Ring, n)
			for i := range out {
				out[i] = Point{coord(), coord()}
			}
			if rng.IntN(2) == 0 {
				out = append(out, out[0])
			}
			return out
		}
		// A star-shaped ring around (cx, cy), snapped to the grid.
		n := 3 + rng.IntN(10)
		out := make(Ring, 0, n+1)
		for i := range n {
			a := 2 * math.Pi * (float64(i) + rng.Float64()*0.8) / float64(n)
			d := r * (0.3 + 0.7*rng.Float64())
			p := Point{cx + d*math.Cos(a), cy + d*math.Sin(a)}
			if onGrid {
				p = Point{math.Round(p.X*4) / 4, math.Round(p.Y*4) / 4}
			}
			out = append(out, p)
			if rng.IntN(10) == 0 {
				out = append(out, p) // a repeated position
			}
		}
		return append(out, out[0])
	}
	var m MultiPolygon
	for range 1 + rng.IntN(4) {
		cx, cy, r := 1+6*rng.Float64(), 1+6*rng.Float64(), 1+3*rng.Float64()
		p := Polygon{ring(cx, cy, r)}
		for range rng.IntN(6) {
			hx, hy := cx+r*(rng.Float64()-0.5), cy+r*(rng.Float64()-0.5)
			p = append(p, ring(hx, hy, r/3))
		}
		if rng.IntN(15) == 0 {
			p = Polygon{}
		}
		m = append(m, p)
	}
	return m
}

// queryCoord draws a query coordinate: on the grid of eighths (so on
// vertices, edges and half-way), or anywhere, a little beyond the data.
func queryCoord(rng *rand.Rand) float64 {
	if rng.IntN(3) > 0 {
		return float64(rng.IntN(81)-4) / 8
	}
	return rng.Float64()*10 - 1
}

func TestIndexContainsPointMatchesMultiPolygon(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 1))
		m := randomMultiPolygon(rng, seed%4 != 3)
		ix := NewIndex(m)
		for range 400 {
			x, y := queryCoord(rng), queryCoord(rng)
			require.Equal(t, m.ContainsPoint(x, y), ix.ContainsPoint(x, y), "seed %d, point (%g, %g) of %v", seed, x, y, m)
		}
	}
}

func TestIndexRowsMatchMultiPolygon(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 2))
		m := randomMultiPolygon(rng, seed%4 != 3)
		ix := NewIndex(m)
		for range 40 {
			y := queryCoord(rng)
			x0, step := queryCoord(rng)-1, []float64{0.125, 0.25, 0.1, -0.125, 0.037, 0}[rng.IntN(6)]
			row := ix.Row(y)
			for k := range 100 {
				x := x0 + float64(float64(k)*step)
				require.Equal(t, m.ContainsPoint(x, y), row.Contains(x), "seed %d, row at (%g, %g)", seed, x, y)
			}
			mask := make([]bool, 100)
			for k := range mask {
				mask[k] = k%7 != 3 // Mask only clears
			}
			row.Mask(x0, step, mask)
			for k, got := range mask {
				x := x0 + float64(float64(k)*step)
				require.Equal(t, k%7 != 3 && m.ContainsPoint(x, y), got, "seed %d, mask at (%g, %g), step %g", seed, x, y, step)
			}
		}
	}
}

func TestIndexIntersectsBoxMatchesMultiPolygon(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 3))
		m := randomMultiPolygon(rng, seed%4 != 3)
		ix := NewIndex(m)
		for range 300 {
			w, s := queryCoord(rng), queryCoord(rng)
			var b BBox
			switch rng.IntN(5) {
			case 0: // a point or a segment
				b = BBox{w, s, w + float64(rng.IntN(2))/4, s}
			case 1: // large
				b = BBox{w - 4, s - 4, w + 4*rng.Float64(), s + 4*rng.Float64()}
			default:
				b = BBox{w, s, w + float64(rng.IntN(9))/8, s + float64(rng.IntN(9))/8}
			}
			require.Equal(t, m.IntersectsBox(b), ix.IntersectsBox(b), "seed %d, box %+v of %v", seed, b, m)
		}
		require.False(t, ix.IntersectsBox(EmptyBox()))
	}
}

// TestIndexNonFinite checks coordinates that are not finite, which the
// index files apart, against the plain tests.
func TestIndexNonFinite(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	m := MultiPolygon{
		{BBox{0, 0, 4, 4}.Ring(), Ring{{1, 1}, {2, 1}, {nan, 2}, {1, 1}}},
		{Ring{{5, 0}, {inf, 0}, {6, 3}, {5, 0}}},
		{Ring{{nan, nan}, {7, 7}, {7, 8}, {nan, nan}}},
	}
	ix := NewIndex(m)
	for _, y := range []float64{-1, 0, 0.5, 1, 1.5, 2, 3, 4, 7.5, nan, inf} {
		for x := -1.0; x <= 9; x += 0.25 {
			assert.Equal(t, m.ContainsPoint(x, y), ix.ContainsPoint(x, y), "(%g, %g)", x, y)
		}
	}
	for _, b := range []BBox{{1, 1, 2, 2}, {5.5, 1, 5.6, 1.1}, {10, 0, 11, 1}, {6, 7, 8, 9}, {-1, -1, 9, 9}} {
		assert.Equal(t, m.IntersectsBox(b), ix.IntersectsBox(b), "box %+v", b)
	}
}

func TestIndexHoles(t *testing.T) {
	m := MultiPolygon{{BBox{0, 0, 10, 10}.Ring(), BBox{2, 2, 4, 4}.Ring(), BBox{6, 6, 8, 8}.Ring()}}
	ix := NewIndex(m)
	assert.True(t, ix.ContainsPoint(1, 1))
	assert.False(t, ix.ContainsPoint(3, 3), "in a hole")
	assert.True(t, ix.ContainsPoint(5, 3))
	assert.False(t, ix.IntersectsBox(BBox{2.5, 2.5, 3.5, 3.5}), "a box inside a hole")
	assert.True(t, ix.IntersectsBox(BBox{4.5, 4.5, 5.5, 5.5}), "a box between the holes")
	assert.True(t, ix.IntersectsBox(BBox{3.5, 3.5, 4.5, 4.5}), "a box across a hole's edge")
	assert.InDelta(t, 2.8, ix.MeanCrossings(BBox{0, 0, 10, 10}), 1e-9, "two vertical edges of 10 and four of 2, over a height of 10")
}

func ExampleIndex() {
	m := MultiPolygon{{BBox{0, 0, 10, 10}.Ring(), BBox{4, 4, 6, 6}.Ring()}}
	ix := NewIndex(m)
	inside := make([]bool, 10)
	for x := range inside {
		inside[x] = true
	}
	ix.Row(5).Mask(0.5, 1, inside) // the points (0.5, 5), (1.5, 5), ...
	for _, in := range inside {
		if in {
			fmt.Print("#")
		} else {
			fmt.Print(".")
		}
	}
	fmt.Println()
	// Output: ####..####
}

func TestIndexIntersectsMatchesMultiPolygon(t *testing.T) {
	for seed := range uint64(600) {
		rng := rand.New(rand.NewPCG(seed, 4))
		m, o := randomMultiPolygon(rng, seed%4 != 3), randomMultiPolygon(rng, seed%4 != 3)
		if seed%3 == 0 { // a small one, near or inside the other
			x, y := queryCoord(rng), queryCoord(rng)
			o = MultiPolygon{{BBox{x, y, x + float64(rng.IntN(5))/4, y + float64(rng.IntN(5))/4}.Ring()}}
		}
		require.Equal(t, m.Intersects(o), NewIndex(m).Intersects(NewIndex(o)), "seed %d: %v and %v", seed, m, o)
		require.Equal(t, o.Intersects(m), NewIndex(o).Intersects(NewIndex(m)), "seed %d: %v and %v", seed, o, m)
	}
}

// TestIndexStarOfSpikes indexes a star of 10,000 long spikes, whose edges'
// boxes each cover a good part of the star: the grid stays small and the
// answers are the plain tests'.
func TestIndexStarOfSpikes(t *testing.T) {
	const n = 5000
	star := make(Ring, 0, 2*n+1)
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		b := a + math.Pi/n
		star = append(star, Point{0.01 * math.Cos(a), 0.01 * math.Sin(a)}, Point{math.Cos(b), math.Sin(b)})
	}
	star = append(star, star[0])
	m := MultiPolygon{{star}}
	ix := NewIndex(m)
	assert.LessOrEqual(t, len(ix.cells.items), 9*len(star), "about eight filings an edge at most")
	rng := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		x, y := 2*rng.Float64()-1, 2*rng.Float64()-1
		require.Equal(t, m.ContainsPoint(x, y), ix.ContainsPoint(x, y), "(%g, %g)", x, y)
		b := BBox{x, y, x + 0.01, y + 0.01}
		require.Equal(t, m.IntersectsBox(b), ix.IntersectsBox(b), "box %+v", b)
	}
}
