package dem

import (
	"context"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// BenchmarkExport exports the whole demo record (1200×1200 pixels, 5.8 MB
// uncompressed) and reports the GeoTIFF bytes written per second: the
// figure behind Options.BytesPerSecond.
func BenchmarkExport(b *testing.B) {
	rec := demoRecord(b, res)
	j := job(b, rec, nil)
	for _, deflate := range []bool{false, true} {
		name := map[bool]string{false: "none", true: "deflate"}[deflate]
		b.Run(name, func(b *testing.B) {
			e := New(Options{Deflate: deflate})
			raw := int64(4 * 1200 * 1200)
			b.SetBytes(raw) // uncompressed bytes, as BytesPerSecond counts
			for b.Loop() {
				if _, err := e.Export(context.Background(), j, testout.New(b.TempDir())); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
