package crs_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
	"github.com/openapi-viewer/viewer/exporttask/internal/gdaltest"
)

// projCRS is what the tests read of `projinfo -o PROJJSON`: the area of
// use and whether the first axis is northing or latitude.
type projCRS struct {
	west, south, east, north float64
	northFirst               bool
}

// describe runs projinfo on EPSG:code.
func describe(t *testing.T, projinfo string, code int) projCRS {
	t.Helper()
	out := gdaltest.Run(t, projinfo, "-o", "PROJJSON", "-q", fmt.Sprintf("EPSG:%d", code))
	var j struct {
		BBox *struct {
			South float64 `json:"south_latitude"`
			West  float64 `json:"west_longitude"`
			North float64 `json:"north_latitude"`
			East  float64 `json:"east_longitude"`
		} `json:"bbox"`
		Usages []struct {
			BBox *struct {
				South float64 `json:"south_latitude"`
				West  float64 `json:"west_longitude"`
				North float64 `json:"north_latitude"`
				East  float64 `json:"east_longitude"`
			} `json:"bbox"`
		} `json:"usages"`
		CS struct {
			Axis []struct {
				Direction string `json:"direction"`
			} `json:"axis"`
		} `json:"coordinate_system"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("projinfo EPSG:%d: %v", code, err)
	}
	bb := j.BBox
	if bb == nil && len(j.Usages) > 0 {
		bb = j.Usages[0].BBox
	}
	if bb == nil {
		t.Fatalf("projinfo EPSG:%d: no area of use", code)
	}
	p := projCRS{west: bb.West, south: bb.South, east: bb.East, north: bb.North}
	if len(j.CS.Axis) > 0 {
		p.northFirst = j.CS.Axis[0].Direction == "north"
	}
	return p
}

// cs2cs transforms the points with `cs2cs -f %.12f from to` and returns
// the first two output values of each line, in the order cs2cs writes
// them.
func cs2cs(t *testing.T, bin, from, to string, pts [][2]float64) [][2]float64 {
	t.Helper()
	var in strings.Builder
	for _, p := range pts {
		fmt.Fprintf(&in, "%.12f %.12f\n", p[0], p[1])
	}
	cmd := exec.Command(bin, "-f", "%.12f", from, to)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cs2cs %s %s: %v", from, to, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(pts) {
		t.Fatalf("cs2cs %s %s: %d lines for %d points", from, to, len(lines), len(pts))
	}
	res := make([][2]float64, len(pts))
	for i, l := range lines {
		f := strings.Fields(l)
		res[i] = [2]float64{math.NaN(), math.NaN()}
		if len(f) >= 2 {
			a, err1 := strconv.ParseFloat(f[0], 64)
			b, err2 := strconv.ParseFloat(f[1], 64)
			if err1 == nil && err2 == nil {
				res[i] = [2]float64{a, b}
			}
		}
	}
	return res
}

// grid returns n×n points over the box, inset by a hundredth of its size.
func grid(west, south, east, north float64, n int) [][2]float64 {
	if east < west {
		east += 360
	}
	dx, dy := (east-west)*0.98, (north-south)*0.98
	west, south = west+(east-west)*0.01, south+(north-south)*0.01
	var pts [][2]float64
	for i := range n {
		for j := range n {
			lon := west + dx*float64(i)/float64(n-1)
			if lon > 180 {
				lon -= 360
			}
			pts = append(pts, [2]float64{lon, south + dy*float64(j)/float64(n-1)})
		}
	}
	return pts
}

// TestAgainstPROJ transforms a grid of points over the area of use of
// every supported CRS both ways and compares with cs2cs: within 1 mm in
// projected coordinates, and within the same distance in degrees.
func TestAgainstPROJ(t *testing.T) {
	bin := gdaltest.Require(t, "cs2cs")
	projinfo := gdaltest.Require(t, "projinfo")
	for _, code := range crs.Codes() {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			c, err := crs.FromEPSG(code)
			if err != nil {
				t.Fatal(err)
			}
			d := describe(t, projinfo, code)
			lonlat := grid(d.west, d.south, d.east, d.north, 9)
			latlon := make([][2]float64, len(lonlat))
			for i, p := range lonlat {
				latlon[i] = [2]float64{p[1], p[0]}
			}
			epsg := fmt.Sprintf("EPSG:%d", code)
			fwd := cs2cs(t, bin, "EPSG:4326", epsg, latlon)
			const tolM = 1e-3
			bad := 0
			for i, p := range lonlat {
				want := fwd[i]
				if d.northFirst {
					want[0], want[1] = want[1], want[0]
				}
				x, y, ok := c.FromLonLat(p[0], p[1])
				if math.IsNaN(want[0]) {
					continue
				}
				var dist float64
				if c.IsGeographic() {
					dist = degDist(x, y, want[0], want[1])
				} else {
					dist = math.Hypot(x-want[0], y-want[1]) * unitOf(code)
				}
				if !ok || !(dist <= tolM) {
					if bad++; bad <= 5 {
						t.Errorf("FromLonLat(%.9f, %.9f) = %.6f, %.6f (%v), cs2cs %.6f, %.6f: %.3g m off", p[0], p[1], x, y, ok, want[0], want[1], dist)
					}
				}
			}
			// Back: the projected points cs2cs gave, to lon/lat.
			back := cs2cs(t, bin, epsg, "EPSG:4326", fwd)
			for i, p := range fwd {
				if math.IsNaN(p[0]) || math.IsNaN(back[i][0]) {
					continue
				}
				if d.northFirst {
					p[0], p[1] = p[1], p[0]
				}
				lon, lat, ok := c.ToLonLat(p[0], p[1])
				want := [2]float64{back[i][1], back[i][0]}
				if dist := degDist(lon, lat, want[0], want[1]); !ok || !(dist <= tolM) {
					if bad++; bad <= 10 {
						t.Errorf("ToLonLat(%.6f, %.6f) = %.10f, %.10f (%v), cs2cs %.10f, %.10f: %.3g m off", p[0], p[1], lon, lat, ok, want[0], want[1], dist)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d points off by more than %g m", bad, 2*len(lonlat), tolM)
			}
		})
	}
}

// unitOf returns metres per unit of the test's CRSs.
func unitOf(code int) float64 {
	if code == 2227 {
		return 1200.0 / 3937.0
	}
	return 1
}

// degDist returns the distance in metres between two nearby lon/lat
// points on a sphere of the Earth's mean radius.
func degDist(lon1, lat1, lon2, lat2 float64) float64 {
	const r = 6371000.0
	dl := math.Remainder(lon1-lon2, 360)
	return r * math.Pi / 180 * math.Hypot(dl*math.Cos(lat2*math.Pi/180), lat1-lat2)
}
