package geom

import (
	"reflect"
	"testing"
)

type position []float64

func TestAppendRings(t *testing.T) {
	rings := [][]position{
		{{0, 0, 5}, {4, 0}, {4, 4}, {0, 0}},
		{{1, 1}, {2, 1}, {1, 2}, {1, 1}},
	}
	pts, poly := AppendRings(make([]Point, 0, 1), nil, rings)
	want := Polygon{
		{{0, 0}, {4, 0}, {4, 4}, {0, 0}},
		{{1, 1}, {2, 1}, {1, 2}, {1, 1}},
	}
	if !reflect.DeepEqual(poly, want) || len(pts) != 8 {
		t.Fatalf("got %v (%d points), want %v", poly, len(pts), want)
	}
	// A ring's capacity ends at its last point: growing one does not
	// overwrite the next.
	_ = append(poly[0], Point{9, 9})
	if poly[1][0] != (Point{1, 1}) {
		t.Fatalf("appending to ring 0 changed ring 1: %v", poly[1])
	}
}
