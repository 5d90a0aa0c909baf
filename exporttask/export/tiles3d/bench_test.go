package tiles3d

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// BenchmarkExport exports the whole demo record (levels 7 to 10, 70 tiles,
// 2.7 MB of content) and reports content bytes packed per second: the
// figure behind Options.BytesPerSecond.
func BenchmarkExport(b *testing.B) {
	rec := demoRecord(b)
	j := job(b, rec, nil)
	var content int64
	filepath.Walk(filepath.Join(rec.Location, SourceDir, "tiles"), func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			content += fi.Size()
		}
		return nil
	})
	b.SetBytes(content)
	e := New(Options{})
	for b.Loop() {
		if _, err := e.Export(context.Background(), j, testout.New(b.TempDir())); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteDemoSource writes the demo tileset.
func BenchmarkWriteDemoSource(b *testing.B) {
	rec := demoRecord(b)
	for b.Loop() {
		if err := WriteDemoSource(rec.Location, rec); err != nil {
			b.Fatal(err)
		}
	}
}
