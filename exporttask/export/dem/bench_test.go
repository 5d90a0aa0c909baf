package dem

import (
	"context"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// BenchmarkExport exports the whole demo record (1200×1200 Float32
// pixels, 5.8 MB decoded) and reports the window's decoded bytes per
// second: the figure behind Options.BytesPerSecond.
func BenchmarkExport(b *testing.B) {
	rec := demoRecord(b, res)
	j := job(b, rec, nil)
	e := New(Options{TempDir: b.TempDir()})
	b.SetBytes(4 * 1200 * 1200)
	for b.Loop() {
		if _, err := e.Export(context.Background(), j, testout.New(b.TempDir())); err != nil {
			b.Fatal(err)
		}
	}
}
