package crs_test

import (
	"math"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// TestFootprintFollowsCurvedEdges transforms a UTM box far from the
// central meridian, whose northern edge bulges north between its corners,
// and checks the box against cs2cs's transform of many points along each
// edge: the corners alone would miss the bulge.
func TestFootprintFollowsCurvedEdges(t *testing.T) {
	bin := gdaltest.Require(t, "cs2cs")
	c, err := crs.FromEPSG(32636)
	if err != nil {
		t.Fatal(err)
	}
	minX, minY, maxX, maxY := 200000.0, 6000000.0, 800000.0, 7000000.0
	ring, box, err := crs.Footprint(c, minX, minY, maxX, maxY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ring) != 4*crs.DefaultEdgePoints+1 || ring[0] != ring[len(ring)-1] {
		t.Fatalf("ring of %d points, first %v last %v", len(ring), ring[0], ring[len(ring)-1])
	}
	// The same edges, 4×1000 points, through PROJ.
	var pts [][2]float64
	const k = 1000
	for i := range k {
		f := float64(i) / k
		pts = append(pts, [2]float64{minX + (maxX-minX)*f, minY}, [2]float64{maxX, minY + (maxY-minY)*f},
			[2]float64{maxX - (maxX-minX)*f, maxY}, [2]float64{minX, maxY - (maxY-minY)*f})
	}
	ll := cs2cs(t, bin, "EPSG:32636", "EPSG:4326", pts)
	want := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} // west, south, east, north
	for _, p := range ll {
		lat, lon := p[0], p[1]
		want = [4]float64{min(want[0], lon), min(want[1], lat), max(want[2], lon), max(want[3], lat)}
	}
	got := [4]float64{box.West, box.South, box.East, box.North}
	for i, side := range []string{"west", "south", "east", "north"} {
		// 64 segments per edge sample the curve to within 1e-5°.
		if math.Abs(got[i]-want[i]) > 1e-5 {
			t.Errorf("%s: %.7f, PROJ along the edges %.7f", side, got[i], want[i])
		}
	}
	// The corners alone fall short of the northern bulge.
	_, cornerLat1, _ := c.ToLonLat(minX, maxY)
	_, cornerLat2, _ := c.ToLonLat(maxX, maxY)
	if max(cornerLat1, cornerLat2) > box.North-0.01 {
		t.Errorf("the corners reach %.4f°, the edge %.4f°: no bulge to test", max(cornerLat1, cornerLat2), box.North)
	}
}

func TestFootprintRefusesWhatItCannotTransform(t *testing.T) {
	c, err := crs.FromEPSG(32636)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := crs.Footprint(c, -2e7, 0, 2e7, 1000, 0); err == nil {
		t.Error("a box beyond the Transverse Mercator's domain: no error")
	}
	if _, _, err := crs.Footprint(c, 10, 0, 5, 1, 0); err == nil {
		t.Error("an empty box: no error")
	}
	wm, _ := crs.FromEPSG(3857)
	if _, _, err := crs.Footprint(wm, 1.9e7, 0, 2.1e7, 1000, 0); err == nil {
		t.Error("a Web Mercator box across the antimeridian: no error")
	}
}

// TestHostileCoordinates feeds NaN, infinities and absurd values to every
// method: never a panic, never ok with a NaN result.
func TestHostileCoordinates(t *testing.T) {
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e308, -1e308, 0}
	for _, code := range []int{32636, 3857, 2154, 2039, 26711, 4326, 4267, 24200} {
		c, err := crs.FromEPSG(code)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range bad {
			for _, b := range bad {
				if x, y, ok := c.ToLonLat(a, b); ok && (math.IsNaN(x) || math.IsNaN(y) || math.Abs(y) > 90) {
					t.Errorf("EPSG:%d ToLonLat(%g, %g) = %g, %g, ok", code, a, b, x, y)
				}
				if x, y, ok := c.FromLonLat(a, b); ok && (math.IsNaN(x) || math.IsNaN(y)) {
					t.Errorf("EPSG:%d FromLonLat(%g, %g) = %g, %g, ok", code, a, b, x, y)
				}
			}
		}
	}
}
