package exporttask_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/openapi-viewer/viewer/exporttask"
)

// rect returns a closed counterclockwise rectangle from (x0, y0) to (x1, y1).
func rect(x0, y0, x1, y1 float64) []exporttask.Position {
	return []exporttask.Position{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}
}

// pos turns pairs of numbers into positions.
func pos(xy ...float64) []exporttask.Position {
	out := make([]exporttask.Position, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		out = append(out, exporttask.Position{xy[i], xy[i+1]})
	}
	return out
}

// zigzag returns a simple ring of n zigzag edges, each from longitude 0 to
// 10 of the unrotated ring, turned by 45° so that the boxes of all its
// edges overlap: the worst case of the simplicity check, which compares
// every pair of them.
func zigzag(n int) []exporttask.Position {
	r := make([]exporttask.Position, 0, n+4)
	eps := 10.0 / float64(n)
	for k := 0; k <= n; k++ {
		r = append(r, exporttask.Position{float64(k%2) * 10, float64(k) * eps})
	}
	r = append(r, exporttask.Position{-1, float64(n) * eps}, exporttask.Position{-1, 0}, r[0])
	for i, p := range r {
		r[i] = exporttask.Position{(p[0] - p[1]) / math.Sqrt2, (p[0] + p[1]) / math.Sqrt2}
	}
	r[len(r)-1] = r[0]
	return r
}

// holeStrip returns a ring 0.01° wide and 1° tall with n small triangular
// holes stacked in it: all of them overlap in longitude.
func holeStrip(n int) [][]exporttask.Position {
	rings := [][]exporttask.Position{rect(34, 31, 34.01, 32)}
	for k := range n {
		y := 31 + float64(k)/float64(n)
		rings = append(rings, pos(34.002, y+1e-5, 34.008, y+1e-5, 34.005, y+6e-5, 34.002, y+1e-5))
	}
	return rings
}

func TestValidateRings(t *testing.T) {
	const at = "/ROI/features/0/geometry/coordinates"
	tests := []struct {
		name  string
		geom  *exporttask.Geometry
		wants []exporttask.FieldError // nil: valid
	}{
		{name: "square", geom: exporttask.NewPolygon(rect(0, 0, 1, 1))},
		{name: "clockwise square", geom: exporttask.NewPolygon(pos(0, 0, 0, 1, 1, 1, 1, 0, 0, 0))},
		{name: "a repeated position", geom: exporttask.NewPolygon(pos(0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0))},
		{name: "collinear positions along an edge", geom: exporttask.NewPolygon(pos(0, 0, 0.5, 0, 1, 0, 1, 1, 0, 0))},
		{name: "a hole", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(2, 2, 3, 3))},
		{name: "two holes", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(2, 2, 3, 3), rect(5, 5, 6, 6))},
		{name: "concave shell with a hole in its arm", geom: exporttask.NewPolygon(
			pos(0, 0, 10, 0, 10, 10, 8, 10, 8, 2, 0, 2, 0, 0), rect(9, 5, 9.5, 6))},
		{name: "large ring", geom: exporttask.NewPolygon(ring(exporttask.MaxRingPositions))},
		{name: "zigzag within the budget", geom: exporttask.NewPolygon(zigzag(1000))},
		{name: "12,000 holes in a strip", geom: exporttask.NewPolygon(holeStrip(12_000)...)},

		{name: "all on one line", geom: exporttask.NewPolygon(pos(0, 0, 1, 0, 2, 0, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must enclose an area: its positions are all on one line")}},
		{name: "one position repeated", geom: exporttask.NewPolygon(pos(1, 1, 1, 1, 1, 1, 1, 1)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must enclose an area: its positions are all on one line")}},
		{name: "a zero-area hole", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), pos(2, 2, 3, 3, 2, 2, 2, 2)),
			wants: []exporttask.FieldError{fe(at+"/1", "a linear ring must enclose an area: its positions are all on one line")}},
		{name: "bowtie", geom: exporttask.NewPolygon(pos(0, 0, 1, 1, 1, 0, 0, 1, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must not cross or touch itself: the edge from position 0 to 1 meets the edge from position 2 to 3")}},
		{name: "bowtie over 340° by 120°", geom: exporttask.NewPolygon(pos(-170, -60, 170, 60, 170, -60, -170, 60, -170, -60)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must not cross or touch itself: the edge from position 0 to 1 meets the edge from position 2 to 3")}},
		{name: "figure eight touching at a position", geom: exporttask.NewPolygon(pos(0, 0, 2, 0, 1, 1, 2, 2, 0, 2, 1, 1, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must not cross or touch itself: the edge from position 1 to 2 meets the edge from position 4 to 5")}},
		{name: "a position on another edge", geom: exporttask.NewPolygon(pos(0, 0, 4, 0, 4, 4, 2, 0, 0, 4, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must not cross or touch itself: the edge from position 0 to 1 meets the edge from position 2 to 3")}},
		{name: "a spike that turns back", geom: exporttask.NewPolygon(pos(0, 0, 2, 0, 2, 2, 2, 3, 2, 2, 0, 2, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must not cross or touch itself: the edge from position 1 to 2 meets the edge from position 3 to 4")}},
		{name: "a spike out of a straight edge", geom: exporttask.NewPolygon(pos(0, 0, 2, 0, 3, 0, 2, 0, 4, 0, 4, 4, 0, 4, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must not cross or touch itself: the edge from position 0 to 1 meets the edge from position 2 to 3")}},
		{name: "a triangle folded flat at the closing position", geom: exporttask.NewPolygon(pos(0, 0, 2, 0, 1, 0, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/0", "a linear ring must enclose an area: its positions are all on one line")}},
		{name: "hole outside the shell", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(20, 20, 21, 21)),
			wants: []exporttask.FieldError{fe(at+"/1", "a hole must lie inside the exterior ring (ring 0)")}},
		{name: "hole in the notch of a concave shell", geom: exporttask.NewPolygon(
			pos(0, 0, 10, 0, 10, 10, 8, 10, 8, 2, 0, 2, 0, 0), rect(2, 5, 3, 6)),
			wants: []exporttask.FieldError{fe(at+"/1", "a hole must lie inside the exterior ring (ring 0)")}},
		{name: "hole crossing the shell", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(9, 4, 11, 5)),
			wants: []exporttask.FieldError{fe(at+"/1", "must not cross or touch ring 0: the edge from position 0 to 1 meets its edge from position 1 to 2")}},
		{name: "hole touching the shell", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), pos(0, 0, 1, 2, 2, 1, 0, 0)),
			wants: []exporttask.FieldError{fe(at+"/1", "must not cross or touch ring 0: the edge from position 0 to 1 meets its edge from position 0 to 1")}},
		{name: "hole inside a hole", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(2, 2, 8, 8), rect(3, 3, 4, 4)),
			wants: []exporttask.FieldError{fe(at+"/2", "a hole must not lie inside another hole (ring 1)")}},
		{name: "hole inside a later hole", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(3, 3, 4, 4), rect(2, 2, 8, 8)),
			wants: []exporttask.FieldError{fe(at+"/1", "a hole must not lie inside another hole (ring 2)")}},
		{name: "holes crossing", geom: exporttask.NewPolygon(rect(0, 0, 10, 10), rect(2, 2, 4, 4), rect(3, 3, 5, 5)),
			wants: []exporttask.FieldError{fe(at+"/2", "must not cross or touch ring 1: the edge from position 0 to 1 meets its edge from position 1 to 2")}},
		{name: "in the second polygon of a MultiPolygon", geom: exporttask.NewMultiPolygon(
			[][]exporttask.Position{rect(0, 0, 1, 1)}, [][]exporttask.Position{pos(0, 0, 1, 1, 1, 0, 0, 1, 0, 0)}),
			wants: []exporttask.FieldError{fe(at+"/1/0", "a linear ring must not cross or touch itself: the edge from position 0 to 1 meets the edge from position 2 to 3")}},
		{name: "too intricate to check", geom: exporttask.NewPolygon(zigzag(9000)),
			wants: []exporttask.FieldError{fe(at, "is too intricate to check: more than 4000000 pairs of its edges lie close together; simplify it")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRequest()
			r.ROI.Features[0].Geometry = tt.geom
			assert.Equal(t, tt.wants, problemsOf(t, r.Validate()))
		})
	}
}

// TestValidateRingsOrientationFree checks that every starting position
// and both directions of a ring give the same verdict.
func TestValidateRingsOrientationFree(t *testing.T) {
	for name, ring := range map[string][]exporttask.Position{
		"valid":    pos(0, 0, 4, 0, 4, 4, 2, 1, 0, 4, 0, 0),
		"bowtie":   pos(0, 0, 1, 1, 1, 0, 0, 1, 0, 0),
		"eight":    pos(0, 0, 2, 0, 1, 1, 2, 2, 0, 2, 1, 1, 0, 0),
		"spike":    pos(0, 0, 2, 0, 2, 2, 2, 3, 2, 2, 0, 2, 0, 0),
		"flat":     pos(0, 0, 1, 0, 2, 0, 0, 0),
		"on edge":  pos(0, 0, 4, 0, 4, 4, 2, 0, 0, 4, 0, 0),
		"triangle": pos(0, 0, 1, 0, 0, 1, 0, 0),
	} {
		open := ring[:len(ring)-1]
		var want *bool
		for start := range open {
			for _, reverse := range []bool{false, true} {
				r := make([]exporttask.Position, 0, len(ring))
				for i := range open {
					j := (start + i) % len(open)
					if reverse {
						j = (start - i + len(open)) % len(open)
					}
					r = append(r, open[j])
				}
				r = append(r, r[0])
				req := validRequest()
				req.ROI.Features[0].Geometry = exporttask.NewPolygon(r)
				valid := req.Validate() == nil
				if want == nil {
					want = &valid
				}
				assert.Equal(t, *want, valid, "%s from %d, reversed %v: %v", name, start, reverse, req.Validate())
			}
		}
		assert.Equal(t, name == "valid" || name == "triangle", *want, "%s", name)
	}
}

func ExampleCreateRequest_Validate_bowtie() {
	r := exporttask.CreateRequest{
		CatalogRecordID: "0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05",
		Domain:          exporttask.DomainDEM,
		ArtifactCRS:     exporttask.CRS4326,
		ROI: &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature,
			Geometry: exporttask.NewPolygon([]exporttask.Position{
				{34, 31}, {35, 32}, {35, 31}, {34, 32}, {34, 31}}),
		}}},
		Webhook: []exporttask.Webhook{{URL: "https://hooks.example.org/x", Events: []exporttask.Event{exporttask.EventCompleted}}},
	}
	fmt.Println(r.Validate())
	// Output:
	// exporttask: invalid request: /ROI/features/0/geometry/coordinates/0: a linear ring must not cross or touch itself: the edge from position 0 to 1 meets the edge from position 2 to 3
}
