package exporttask_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// BenchmarkValidateRings validates regions of interest at the limits, to
// show what the ring checks cost:
//
//   - circles: MaxPositions positions in polygons of MaxRingPositions, the
//     most a request may have, shaped as real regions are;
//   - holes: one ring of MaxRingPositions with thousands of small holes,
//     MaxPositions in all;
//   - strip: a narrow ring with 12,000 small holes stacked from south to
//     north;
//   - zigzag: the worst accepted case of the simplicity check, a ring whose
//     edges' boxes all overlap, just under the pair budget.
func BenchmarkValidateRings(b *testing.B) {
	circles := func() *exporttask.Geometry {
		var polygons [][][]exporttask.Position
		for i := 0; i < exporttask.MaxPositions/exporttask.MaxRingPositions; i++ {
			r := ring(exporttask.MaxRingPositions)
			for j := range r {
				r[j] = exporttask.Position{r[j][0] + 0.3*float64(i), r[j][1]}
			}
			polygons = append(polygons, [][]exporttask.Position{r})
		}
		return exporttask.NewMultiPolygon(polygons...)
	}
	holes := func() *exporttask.Geometry {
		rings := [][]exporttask.Position{ring(exporttask.MaxRingPositions)}
		const n = 89 // n*n holes of 5 positions: 39605, with the shell 49605
		const gap = 0.1 / n
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				x, y := 34.45+float64(i)*gap, 32.45+float64(j)*gap
				rings = append(rings, rect(x, y, x+gap/2, y+gap/2))
			}
		}
		return exporttask.NewPolygon(rings...)
	}
	for _, bc := range []struct {
		name string
		geom *exporttask.Geometry
	}{
		{"circles", circles()},
		{"holes", holes()},
		{"strip", exporttask.NewPolygon(holeStrip(12_000)...)},
		{"zigzag", exporttask.NewPolygon(zigzag(1400))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := validRequest()
			r.ROI.Features[0].Geometry = bc.geom
			require.NoError(b, r.Validate())
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
