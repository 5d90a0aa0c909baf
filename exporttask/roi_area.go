package exporttask

import (
	"fmt"
	"math"
)

// earthRadiusKm is the mean radius of the Earth (IUGG), in kilometres.
const earthRadiusKm = 6371.0088

// earthAreaKm2 bounds every area: nothing on the globe is larger.
const earthAreaKm2 = 4 * math.Pi * earthRadiusKm * earthRadiusKm

// roiAreaKm2 returns the area of a region of interest on the sphere, in
// square kilometres: the sum over its features of each polygon's outer ring
// minus its holes. It fails on a geometry that is not a Polygon or
// MultiPolygon of [lon, lat] positions with finite coordinates.
func roiAreaKm2(fc *FeatureCollection) (float64, error) {
	total := 0.0
	for i, f := range fc.Features {
		if f.Geometry == nil {
			continue
		}
		polygons, err := polygonsOf(f.Geometry)
		if err != nil {
			return 0, fmt.Errorf("exporttask: ROI feature %d: %w", i, err)
		}
		for _, rings := range polygons {
			a, err := polygonAreaKm2(rings)
			if err != nil {
				return 0, fmt.Errorf("exporttask: ROI feature %d: %w", i, err)
			}
			total += a
		}
	}
	return math.Min(total, earthAreaKm2), nil
}

// polygonsOf returns a geometry's polygons, each as its rings.
func polygonsOf(g *Geometry) ([][][]Position, error) {
	switch g.Type {
	case TypePolygon:
		return [][][]Position{g.Polygon}, nil
	case TypeMultiPolygon:
		return g.MultiPolygon, nil
	}
	return nil, fmt.Errorf("geometry type %q is not Polygon or MultiPolygon", g.Type)
}

// polygonAreaKm2 is the outer ring's area minus the holes', never negative.
func polygonAreaKm2(rings [][]Position) (float64, error) {
	area := 0.0
	for i, ring := range rings {
		a, err := ringAreaKm2(ring)
		if err != nil {
			return 0, fmt.Errorf("ring %d: %w", i, err)
		}
		if i == 0 {
			area = a
		} else {
			area -= a
		}
	}
	return math.Max(area, 0), nil
}

// ringAreaKm2 returns the area enclosed by a ring of [lon, lat] degrees.
//
// For an edge from (λ1, φ1) to (λ2, φ2), the spherical zone between the
// south pole and latitude φ over a longitude span Δλ has area R²·Δλ·(1+sin φ).
// Taking sin φ as the mean of the edge's end points (the trapezoid rule)
// gives the signed area under the edge; summed around a closed ring these
// cancel outside it and leave its area. Edges are read as RFC 7946 does:
// straight in longitude, never wrapping, so a region across the antimeridian
// must be cut in two (section 3.1.9). Exact for edges along meridians and
// parallels, accurate to well under a percent otherwise for the regions an
// export asks for, which is all an estimate needs.
func ringAreaKm2(ring []Position) (float64, error) {
	if len(ring) < 3 {
		return 0, nil
	}
	sum := 0.0
	for i := range ring {
		p, q := ring[i], ring[(i+1)%len(ring)]
		if len(p) < 2 || len(q) < 2 {
			return 0, fmt.Errorf("position %d has fewer than two coordinates", i)
		}
		if !finite(p[0]) || !finite(p[1]) || !finite(q[0]) || !finite(q[1]) {
			return 0, fmt.Errorf("position %d has a non-finite coordinate", i)
		}
		dLon := (q[0] - p[0]) * math.Pi / 180
		sinP := math.Sin(clampLat(p[1]) * math.Pi / 180)
		sinQ := math.Sin(clampLat(q[1]) * math.Pi / 180)
		sum += dLon * (1 + (sinP+sinQ)/2)
	}
	return math.Min(math.Abs(sum)*earthRadiusKm*earthRadiusKm, earthAreaKm2), nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func clampLat(lat float64) float64 { return math.Max(-90, math.Min(90, lat)) }
