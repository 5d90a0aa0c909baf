package tiles3d

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
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

// BenchmarkInspectBoxTileset inspects a quadtree of 5,461 tiles (levels 0
// to 6) with box volumes under an east-north-up root transform, each with
// a small b3dm file: the cost of reading a tileset, which every estimate
// and export pays too.
func BenchmarkInspectBoxTileset(b *testing.B) {
	dir := b.TempDir()
	require.NoError(b, os.MkdirAll(filepath.Join(dir, "t"), 0o755))
	n := 0
	var tile func(level int, x0, y0, size float64) map[string]any
	tile = func(level int, x0, y0, size float64) map[string]any {
		uri := fmt.Sprintf("t/%d.b3dm", n)
		n++
		require.NoError(b, os.WriteFile(filepath.Join(dir, uri), make([]byte, 100), 0o644))
		h := size / 2
		t := map[string]any{
			"boundingVolume": map[string]any{"box": []float64{x0 + h, y0 + h, 50, h, 0, 0, 0, h, 0, 0, 0, 50}},
			"geometricError": size / 100, "content": map[string]any{"uri": uri},
		}
		if level < 6 {
			var children []any
			for _, c := range [][2]float64{{0, 0}, {h, 0}, {0, h}, {h, h}} {
				children = append(children, tile(level+1, x0+c[0], y0+c[1], h))
			}
			t["children"] = children
		}
		return t
	}
	root := tile(0, 0, 0, 10000)
	e, nv, u := enuAxes(34.5, 31.5)
	o := geodetic(34.5, 31.5, 0)
	root["transform"] = []float64{e[0], e[1], e[2], 0, nv[0], nv[1], nv[2], 0, u[0], u[1], u[2], 0, o[0], o[1], o[2], 1}
	js, err := json.Marshal(map[string]any{"asset": map[string]any{"version": "1.0"}, "geometricError": 500, "root": root})
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(filepath.Join(dir, TilesetFile), js, 0o644))
	b.ReportMetric(float64(n), "tiles")
	for b.Loop() {
		rec, err := Inspect(context.Background(), catalog.Source{Path: dir})
		if err != nil || rec.MaxZoom != 6 {
			b.Fatal(err, rec.MaxZoom)
		}
	}
}
