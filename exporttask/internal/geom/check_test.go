package geom

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckerFaults(t *testing.T) {
	box := func(w, s, e, n float64) Ring { return BBox{w, s, e, n}.Ring() }
	for _, tc := range []struct {
		name string
		p    Polygon
		want Fault
	}{
		{"square", Polygon{box(0, 0, 10, 10)}, Fault{}},
		{"square with a hole", Polygon{box(0, 0, 10, 10), box(2, 2, 4, 4)}, Fault{}},
		{"flat", Polygon{{{0, 0}, {1, 1}, {2, 2}, {0, 0}}}, Fault{Kind: Flat, Flat: []int{0}}},
		{"bowtie", Polygon{{{0, 0}, {2, 2}, {2, 0}, {0, 2}, {0, 0}}},
			Fault{Kind: Meets, Meet: [2]Edge{{0, 0, 1}, {0, 2, 3}}}},
		{"hole crossing the shell", Polygon{box(0, 0, 10, 10), box(8, 8, 12, 12)},
			Fault{Kind: Meets, Meet: [2]Edge{{0, 1, 2}, {1, 0, 1}}}},
		{"hole outside", Polygon{box(0, 0, 10, 10), box(20, 20, 22, 22)}, Fault{Kind: HoleOutside, Hole: 1}},
		{"hole in a hole", Polygon{box(0, 0, 10, 10), box(1, 1, 9, 9), box(2, 2, 3, 3)},
			Fault{Kind: HoleInHole, Hole: 2, Outer: 1}},
	} {
		assert.Equal(t, tc.want, NewChecker(1000).Check(tc.p), tc.name)
	}
}

func TestCheckerBudget(t *testing.T) {
	c := NewChecker(3)
	assert.Equal(t, Fault{Kind: TooIntricate}, c.Check(Polygon{BBox{0, 0, 10, 10}.Ring(), BBox{2, 2, 4, 4}.Ring()}),
		"eight edges make more than 3 pairs")
}
