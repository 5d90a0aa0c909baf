package geom

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func square(w, s, e, n float64) Polygon { return Polygon{BBox{w, s, e, n}.Ring()} }

func TestContainsPointHonoursHoles(t *testing.T) {
	p := Polygon{BBox{0, 0, 10, 10}.Ring(), BBox{4, 4, 6, 6}.Ring()}
	m := MultiPolygon{p}
	assert.True(t, m.ContainsPoint(1, 1))
	assert.False(t, m.ContainsPoint(5, 5), "inside the hole")
	assert.False(t, m.ContainsPoint(11, 5))
}

func TestIntersectsBox(t *testing.T) {
	tri := MultiPolygon{{Ring{{0, 0}, {10, 0}, {0, 10}, {0, 0}}}}
	cases := []struct {
		name string
		box  BBox
		want bool
	}{
		{"box inside", BBox{1, 1, 2, 2}, true},
		{"box contains polygon", BBox{-1, -1, 20, 20}, true},
		{"edge crossing", BBox{4, 4, 8, 8}, true},
		{"beyond the hypotenuse", BBox{6, 6, 8, 8}, false},
		{"far away", BBox{20, 20, 21, 21}, false},
		{"touching a corner", BBox{10, -1, 11, 0}, true},
		{"empty box", EmptyBox(), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, tri.IntersectsBox(c.box))
		})
	}
}

func TestIntersectsPolygons(t *testing.T) {
	a := MultiPolygon{square(0, 0, 2, 2)}
	assert.True(t, a.Intersects(MultiPolygon{square(1, 1, 3, 3)}))
	assert.False(t, a.Intersects(MultiPolygon{square(3, 3, 4, 4)}))
	// Boxes overlap but the polygons do not: an L against the notch.
	l := MultiPolygon{{Ring{{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}, {0, 0}}}}
	assert.False(t, l.Intersects(MultiPolygon{square(2, 2, 3, 3)}))
}

func TestBBoxIntersect(t *testing.T) {
	b := BBox{0, 0, 2, 2}.Intersect(BBox{1, 1, 3, 3})
	assert.Equal(t, BBox{1, 1, 2, 2}, b)
	assert.True(t, BBox{0, 0, 1, 1}.Intersect(BBox{2, 2, 3, 3}).Empty())
}
