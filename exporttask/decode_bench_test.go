package exporttask_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
)

// BenchmarkDecodeCreateRequest decodes a body near MaxBodyBytes: a region
// of interest of 5 polygons side by side, of 4000 positions each.
func BenchmarkDecodeCreateRequest(b *testing.B) {
	req := validRequest()
	var polygons [][][]exporttask.Position
	for i := 0; i < 5; i++ {
		r := ring(4000)
		for j := range r {
			r[j] = exporttask.Position{r[j][0] + 0.3*float64(i), r[j][1]}
		}
		polygons = append(polygons, [][]exporttask.Position{r})
	}
	req.ROI.Features[0].Geometry = exporttask.NewMultiPolygon(polygons...)
	body, err := json.Marshal(req)
	require.NoError(b, err)
	require.Less(b, len(body), exporttask.MaxBodyBytes)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exporttask.DecodeCreateRequest(bytes.NewReader(body)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeCreateRequestSmall decodes a typical create: a small
// polygon and one webhook (the load benchmark's request).
func BenchmarkDecodeCreateRequestSmall(b *testing.B) {
	body, err := json.Marshal(validRequest())
	require.NoError(b, err)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exporttask.DecodeCreateRequest(bytes.NewReader(body)); err != nil {
			b.Fatal(err)
		}
	}
}
