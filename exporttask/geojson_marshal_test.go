package exporttask_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// reflected encodes g as encoding/json does by reflection: the reference
// for Geometry.MarshalJSON's hand-written encoding.
func reflected(t *testing.T, g exporttask.Geometry) []byte {
	t.Helper()
	var coords any = g.Polygon
	if g.Type == exporttask.TypeMultiPolygon {
		coords = g.MultiPolygon
	}
	b, err := json.Marshal(struct {
		Type        string `json:"type"`
		Coordinates any    `json:"coordinates"`
	}{g.Type, coords})
	require.NoError(t, err)
	return b
}

func TestGeometryMarshalMatchesReflection(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	number := func() float64 {
		switch rng.IntN(10) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return rng.NormFloat64() * 1e-8 // exponent form
		case 2:
			return rng.NormFloat64() * 1e22
		case 3:
			return float64(rng.IntN(361) - 180)
		case 4:
			return 1e-6 // the boundaries of the plain form
		case 5:
			return 1e21
		case 6: // a decimal of up to 6 decimals, as coordinates mostly are
			return math.Round((rng.Float64()*360-180)*math.Pow10(rng.IntN(7))) / math.Pow10(rng.IntN(7))
		case 7:
			return []float64{1e-6, 9.999999e-6, 999999999.999999, 1e9, 0.1, 0.3, 1.0 / 3, 1e-7}[rng.IntN(8)]
		}
		return rng.Float64()*360 - 180
	}
	rings := func() [][]exporttask.Position {
		if rng.IntN(10) == 0 {
			return nil
		}
		out := make([][]exporttask.Position, rng.IntN(4))
		for i := range out {
			if rng.IntN(10) == 0 {
				continue // a nil ring
			}
			for range rng.IntN(6) {
				var p exporttask.Position
				if rng.IntN(10) > 0 {
					p = exporttask.Position{number(), number()}
					if rng.IntN(5) == 0 {
						p = append(p, number())
					}
				}
				out[i] = append(out[i], p)
			}
		}
		return out
	}
	for range 5000 {
		g := exporttask.Geometry{Type: exporttask.TypePolygon, Polygon: rings()}
		if rng.IntN(2) == 0 {
			g = exporttask.Geometry{Type: exporttask.TypeMultiPolygon}
			if rng.IntN(10) > 0 {
				g.MultiPolygon = [][][]exporttask.Position{}
				for range rng.IntN(4) {
					g.MultiPolygon = append(g.MultiPolygon, rings())
				}
			}
		}
		got, err := json.Marshal(g)
		require.NoError(t, err)
		require.Equal(t, string(reflected(t, g)), string(got))
	}
}

func TestGeometryMarshalRefusesNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := json.Marshal(exporttask.NewPolygon([]exporttask.Position{{0, 0}, {1, v}, {0, 1}, {0, 0}}))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "exporttask: encoding a Polygon: json: unsupported value")
	}
}
