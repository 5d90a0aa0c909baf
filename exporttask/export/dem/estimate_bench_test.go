package dem

import (
	"context"
	"os"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// BenchmarkEstimateSampled times an estimate of the whole extent of the
// GeoTIFF named by DEM_ESTIMATE_SOURCE (skipped without it), with the
// compression sampled (Sampled) and without (the source's ratio).
func BenchmarkEstimateSampled(b *testing.B) {
	path := os.Getenv("DEM_ESTIMATE_SOURCE")
	if path == "" {
		b.Skip("DEM_ESTIMATE_SOURCE names no GeoTIFF")
	}
	rec, err := Inspect(context.Background(), catalog.Source{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	rec.ID = demoID
	j := job(b, rec, nil)
	e := New(Options{TempDir: b.TempDir()})
	b.Run("Estimate", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Estimate(context.Background(), j); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SamplesOnly", func(b *testing.B) {
		p, err := e.plan(j, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer p.close()
		for b.Loop() {
			p.sampledRatios(b.TempDir())
		}
	})
}
