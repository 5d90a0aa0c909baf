// Command crs measures github.com/wroge/wgs84 v1.1.7, the alternative to
// our exporttask/internal/crs, against PROJ: accuracy (the largest
// distance from cs2cs's result over a grid of points per CRS, both
// directions) and speed (ns/point over the same points and loops as the
// crs package's BenchmarkTransform, which this module cannot import: it is
// internal).
//
//	go run ./crs -accuracy            # needs cs2cs (proj-bin)
//	go run ./crs -speed -n 1000000
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wroge/wgs84"
)

func main() {
	accuracy := flag.Bool("accuracy", false, "compare both libraries with cs2cs")
	speed := flag.Bool("speed", false, "time both libraries, ns/point")
	n := flag.Int("n", 1000000, "points per speed round")
	rounds := flag.Int("rounds", 5, "speed rounds per library, alternating")
	flag.Parse()
	switch {
	case *accuracy:
		if err := compareAccuracy(); err != nil {
			log.Fatal(err)
		}
	case *speed:
		compareSpeed(*n, *rounds)
	default:
		flag.Usage()
		os.Exit(2)
	}
}

// codes are the CRSs both libraries know.
var codes = []int{32636, 32736, 32633, 25832, 3857, 2154}

// area returns a lon/lat box inside the CRS's area of use.
func area(code int) (west, south, east, north float64) {
	switch {
	case code == 3857:
		return -180, -85, 180, 85
	case code == 2154:
		return -4.8, 41.3, 8.3, 51.1
	case code > 32700:
		z := float64(code - 32700)
		return z*6 - 186, -80, z*6 - 180, 0
	case code > 32600:
		z := float64(code - 32600)
		return z*6 - 186, 0, z*6 - 180, 84
	default: // ETRS89 UTM
		z := float64(code - 25800)
		return z*6 - 186, 34, z*6 - 180, 84
	}
}

// grid returns k×k lon/lat points over the CRS's area.
func grid(code, k int) [][2]float64 {
	w, s, e, n := area(code)
	var pts [][2]float64
	for i := range k {
		for j := range k {
			pts = append(pts, [2]float64{w + (e-w)*(float64(i)+0.5)/float64(k), s + (n-s)*(float64(j)+0.5)/float64(k)})
		}
	}
	return pts
}

// cs2cs runs PROJ's cs2cs on the points (in the order it expects).
func cs2cs(from, to string, pts [][2]float64) ([][2]float64, error) {
	var in strings.Builder
	for _, p := range pts {
		fmt.Fprintf(&in, "%.12f %.12f\n", p[0], p[1])
	}
	cmd := exec.Command("cs2cs", "-f", "%.12f", from, to)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cs2cs %s %s: %w", from, to, err)
	}
	var res [][2]float64
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		a, _ := strconv.ParseFloat(f[0], 64)
		b, _ := strconv.ParseFloat(f[1], 64)
		res = append(res, [2]float64{a, b})
	}
	return res, nil
}

// degDist is the distance in metres between two nearby lon/lat points.
func degDist(lon1, lat1, lon2, lat2 float64) float64 {
	dl := math.Remainder(lon1-lon2, 360)
	return 6371000 * math.Pi / 180 * math.Hypot(dl*math.Cos(lat2*math.Pi/180), lat1-lat2)
}

func compareAccuracy() error {
	epsg := wgs84.EPSG()
	fmt.Printf("%-6s %8s  %14s %14s\n", "EPSG", "points", "wroge fwd m", "wroge inv m")
	for _, code := range codes {
		fwdW, invW := epsg.Transform(4326, code), epsg.Transform(code, 4326)
		pts := grid(code, 40)
		latlon := make([][2]float64, len(pts))
		for i, p := range pts {
			latlon[i] = [2]float64{p[1], p[0]}
		}
		proj, err := cs2cs("EPSG:4326", fmt.Sprintf("EPSG:%d", code), latlon)
		if err != nil {
			return err
		}
		back, err := cs2cs(fmt.Sprintf("EPSG:%d", code), "EPSG:4326", proj)
		if err != nil {
			return err
		}
		var wf, wi float64
		for i, p := range pts {
			xw, yw, _ := fwdW(p[0], p[1], 0)
			wf = math.Max(wf, math.Hypot(xw-proj[i][0], yw-proj[i][1]))
			lonw, latw, _ := invW(proj[i][0], proj[i][1], 0)
			wi = math.Max(wi, degDist(lonw, latw, back[i][1], back[i][0]))
		}
		fmt.Printf("%-6d %8d  %14.3g %14.3g\n", code, len(pts), wf, wi)
	}
	return nil
}

func compareSpeed(n, rounds int) {
	epsg := wgs84.EPSG()
	for _, code := range []int{32636, 3857, 2154} {
		fwdW, invW := epsg.Transform(4326, code), epsg.Transform(code, 4326)
		lon, lat := points(code, n)
		xs, ys := make([]float64, n), make([]float64, n)
		for i := range n {
			xs[i], ys[i], _ = fwdW(lon[i], lat[i], 0)
		}
		var sink float64
		var fwd, inv []float64
		for range rounds {
			t := time.Now()
			for i := range n {
				x, y, _ := fwdW(lon[i], lat[i], 0)
				sink += x + y
			}
			fwd = append(fwd, float64(time.Since(t).Nanoseconds())/float64(n))
			t = time.Now()
			for i := range n {
				x, y, _ := invW(xs[i], ys[i], 0)
				sink += x + y
			}
			inv = append(inv, float64(time.Since(t).Nanoseconds())/float64(n))
		}
		fmt.Printf("wroge/wgs84 EPSG:%d ns/point (median of %d rounds of %d points): from lon/lat %.0f, to lon/lat %.0f (sink %g)\n",
			code, rounds, n, median(fwd), median(inv), math.Mod(sink, 1))
	}
}

// points returns the n points of the crs package's BenchmarkTransform:
// a 1000 × 1000 lattice over the CRS's area, repeated.
func points(code, n int) (lon, lat []float64) {
	w, s, e, north := area(code)
	lon, lat = make([]float64, n), make([]float64, n)
	for i := range n {
		lon[i] = w + (e-w)*float64(i%1000)/1000
		lat[i] = s + (north-s)*float64(i/1000%1000)/1000
	}
	return lon, lat
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
