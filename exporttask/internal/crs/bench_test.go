package crs_test

import (
	"fmt"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/crs"
)

// benchArea returns the lon/lat box bench/crs uses for the CRS.
func benchArea(code int) (west, south, east, north float64) {
	switch code {
	case 3857:
		return -180, -85, 180, 85
	case 2154:
		return -4.8, 41.3, 8.3, 51.1
	case 2039:
		return 34.2, 29.4, 35.7, 33.3
	}
	z := float64(code - 32600)
	return z*6 - 186, 0, z*6 - 180, 84
}

// BenchmarkTransform times one point through FromLonLat and ToLonLat
// (ns/op is ns/point), over a 1000 × 1000 lattice of the CRS's area, the
// points bench/crs times github.com/wroge/wgs84 over.
func BenchmarkTransform(b *testing.B) {
	for _, code := range []int{32636, 3857, 2154, 2039} {
		c, err := crs.FromEPSG(code)
		if err != nil {
			b.Fatal(err)
		}
		const n = 1 << 20
		w, s, e, north := benchArea(code)
		lon, lat := make([]float64, n), make([]float64, n)
		xs, ys := make([]float64, n), make([]float64, n)
		for i := range n {
			lon[i] = w + (e-w)*float64(i%1000)/1000
			lat[i] = s + (north-s)*float64(i/1000%1000)/1000
			xs[i], ys[i], _ = c.FromLonLat(lon[i], lat[i])
		}
		var sink float64
		b.Run(fmt.Sprintf("FromLonLat/%d", code), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				x, y, _ := c.FromLonLat(lon[i&(n-1)], lat[i&(n-1)])
				sink += x + y
			}
		})
		b.Run(fmt.Sprintf("ToLonLat/%d", code), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				x, y, _ := c.ToLonLat(xs[i&(n-1)], ys[i&(n-1)])
				sink += x + y
			}
		})
		_ = sink
	}
}

// TestTransformDoesNotAllocate checks the per-point calls allocate
// nothing, including a Helmert shift and NAD27's choice among shifts.
func TestTransformDoesNotAllocate(t *testing.T) {
	for _, code := range []int{32636, 3857, 2154, 2039, 26711, 4326} {
		c, err := crs.FromEPSG(code)
		if err != nil {
			t.Fatal(err)
		}
		x, y, ok := c.FromLonLat(-117.5, 35)
		if code != 26711 && code != 4326 {
			x, y, ok = c.FromLonLat(35, 32)
		}
		if !ok {
			t.Fatalf("EPSG:%d: no point to transform", code)
		}
		if n := testing.AllocsPerRun(100, func() {
			lon, lat, _ := c.ToLonLat(x, y)
			c.FromLonLat(lon, lat)
		}); n != 0 {
			t.Errorf("EPSG:%d: %v allocations per point", code, n)
		}
	}
}
