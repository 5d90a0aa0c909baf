package exporttask

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// box is a closed lon/lat rectangle ring.
func box(lon0, lat0, lon1, lat1 float64) []Position {
	return []Position{{lon0, lat0}, {lon1, lat0}, {lon1, lat1}, {lon0, lat1}, {lon0, lat0}}
}

func polygonROI(rings ...[]Position) *FeatureCollection {
	return &FeatureCollection{Type: "FeatureCollection", Features: []Feature{{
		Type: "Feature", Geometry: NewPolygon(rings...),
	}}}
}

// bandArea is the exact area of a lon/lat rectangle on the sphere.
func bandArea(dLonDeg, lat0, lat1 float64) float64 {
	rad := math.Pi / 180
	return earthRadiusKm * earthRadiusKm * dLonDeg * rad * (math.Sin(lat1*rad) - math.Sin(lat0*rad))
}

func TestROIArea(t *testing.T) {
	tests := []struct {
		name string
		roi  *FeatureCollection
		want float64
	}{
		{"1x1 degree at the equator", polygonROI(box(34, 0, 35, 1)), bandArea(1, 0, 1)},
		{"1x1 degree at 60N", polygonROI(box(10, 60, 11, 61)), bandArea(1, 60, 61)},
		{"clockwise ring", polygonROI([]Position{{34, 0}, {34, 1}, {35, 1}, {35, 0}, {34, 0}}), bandArea(1, 0, 1)},
		{"across the antimeridian, cut in two", &FeatureCollection{Features: []Feature{{Geometry: NewMultiPolygon([][]Position{box(179.5, -10, 180, -9)}, [][]Position{box(-180, -10, -179.5, -9)})}}}, bandArea(1, -10, -9)},
		{"with a hole", polygonROI(box(0, 0, 2, 2), box(0.5, 0.5, 1.5, 1.5)), bandArea(2, 0, 2) - bandArea(1, 0.5, 1.5)},
		{"with altitude", polygonROI([]Position{{34, 0, 100}, {35, 0, 100}, {35, 1, 5}, {34, 1, 5}, {34, 0, 100}}), bandArea(1, 0, 1)},
		{"multipolygon", &FeatureCollection{Features: []Feature{{Geometry: NewMultiPolygon([][]Position{box(0, 0, 1, 1)}, [][]Position{box(10, 60, 11, 61)})}}}, bandArea(1, 0, 1) + bandArea(1, 60, 61)},
		{"two features", &FeatureCollection{Features: []Feature{
			{Geometry: NewPolygon(box(0, 0, 1, 1))},
			{Geometry: NewPolygon(box(0, 0, 1, 1))},
		}}, 2 * bandArea(1, 0, 1)},
		{"feature without geometry", &FeatureCollection{Features: []Feature{{}}}, 0},
		{"degenerate ring", polygonROI([]Position{{0, 0}, {1, 1}}), 0},
		{"the whole globe", polygonROI(box(-180, -90, 180, 90)), earthAreaKm2},
		{"overlapping features are bounded by the globe", &FeatureCollection{Features: []Feature{
			{Geometry: NewPolygon(box(-180, -90, 180, 90))},
			{Geometry: NewPolygon(box(-180, -90, 180, 90))},
		}}, earthAreaKm2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := roiAreaKm2(tc.roi)
			require.NoError(t, err)
			assert.InEpsilon(t, tc.want+1e-9, got+1e-9, 0.005)
		})
	}
}

func TestROIAreaFromDecodedJSON(t *testing.T) {
	var fc FeatureCollection
	require.NoError(t, json.Unmarshal([]byte(`{"type":"FeatureCollection","features":[{"type":"Feature",
		"properties":{},"geometry":{"type":"Polygon","coordinates":[[[34,0],[35,0],[35,1],[34,1],[34,0]]]}}]}`), &fc))
	got, err := roiAreaKm2(&fc)
	require.NoError(t, err)
	assert.InEpsilon(t, bandArea(1, 0, 1), got, 0.001)
}

func TestROIAreaErrors(t *testing.T) {
	tests := map[string]*Geometry{
		"point":          {Type: "Point"},
		"no type":        {Polygon: [][]Position{box(0, 0, 1, 1)}},
		"NaN":            NewPolygon([]Position{{0, 0}, {math.NaN(), 1}, {1, 1}, {0, 0}}),
		"infinite":       NewPolygon([]Position{{0, 0}, {math.Inf(1), 1}, {1, 1}, {0, 0}}),
		"one coordinate": NewPolygon([]Position{{0}, {1, 1}, {1, 0}, {0}}),
		"NaN in a multipolygon": NewMultiPolygon([][]Position{box(0, 0, 1, 1)},
			[][]Position{{{0, 0}, {1, math.NaN()}, {1, 1}, {0, 0}}}),
	}
	for name, g := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := roiAreaKm2(&FeatureCollection{Features: []Feature{{Geometry: g}}})
			assert.Error(t, err)
		})
	}
}
