package tiles3d

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

// quadtreeRecord writes a 3D record whose tileset is a quadtree of region
// tiles over the demo footprint (lon 34–35, lat 31–32), levels 0 to
// depth, every tile naming one small shared b3dm file, and returns the
// record with its number of tiles and the size of its tileset.json.
func quadtreeRecord(t testing.TB, depth int) (catalog.Record, int, int) {
	loc := t.TempDir()
	dir := filepath.Join(loc, SourceDir)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.b3dm"), make([]byte, 100), 0o644))
	n := 0
	rad := math.Pi / 180
	var tile func(level int, w, s, size float64) map[string]any
	tile = func(level int, w, s, size float64) map[string]any {
		n++
		t := map[string]any{
			"boundingVolume": map[string]any{"region": []float64{w * rad, s * rad, (w + size) * rad, (s + size) * rad, 0, 100}},
			"geometricError": size * 1000, "content": map[string]any{"uri": "c.b3dm"},
		}
		if level < depth {
			h := size / 2
			var children []any
			for _, c := range [][2]float64{{0, 0}, {h, 0}, {0, h}, {h, h}} {
				children = append(children, tile(level+1, w+c[0], s+c[1], h))
			}
			t["children"] = children
		}
		return t
	}
	root := tile(0, 34, 31, 1)
	root["refine"] = "ADD"
	js, err := json.Marshal(map[string]any{"asset": map[string]any{"version": "1.0"}, "geometricError": 5000, "root": root})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, TilesetFile), js, 0o644))
	return catalog.Record{ID: demoID, Domain: exporttask.Domain3D, Title: "quadtree", Footprint: jobtest.DemoFootprint(),
		MinZoom: 0, MaxZoom: depth, Location: loc}, n, len(js)
}

// BenchmarkCreateEstimate is the source work of a create (the estimate)
// of a small region of a 3D record, for a tileset of 5 tiles and one of
// 87,381 (levels 0–8, 14.7 MB, within MaxTiles and MaxJSONBytes;
// reported as tilesetBytes): after the first create, which loads
// the tileset, a create costs one stat of tileset.json plus the selection
// of the tiles the region meets, not a read of the tileset.
func BenchmarkCreateEstimate(b *testing.B) {
	for _, depth := range []int{1, 8} {
		rec, n, size := quadtreeRecord(b, depth)
		b.Run(fmt.Sprintf("tiles=%d", n), func(b *testing.B) {
			j := job(b, rec, jobtest.Rect(34.10, 31.10, 34.11, 31.11))
			e := New(Options{})
			if _, err := e.Estimate(context.Background(), j); err != nil { // loads the tileset once
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := e.Estimate(context.Background(), j); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size), "tilesetBytes")
		})
	}
}

// TestEstimateReadsTheTilesetOnce: after the first estimate, estimates
// of a record read no tileset file until tileset.json changes.
func TestEstimateReadsTheTilesetOnce(t *testing.T) {
	rec, _, _ := quadtreeRecord(t, 3)
	j := job(t, rec, jobtest.Rect(34.10, 31.10, 34.11, 31.11))
	e := New(Options{})
	first, err := e.Estimate(context.Background(), j)
	require.NoError(t, err)
	// Garble the file but keep its size and time: a cached tileset does
	// not notice, so the estimate did not read it.
	p := filepath.Join(rec.Location, SourceDir, TilesetFile)
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, make([]byte, st.Size()), 0o644))
	require.NoError(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
	again, err := e.Estimate(context.Background(), j)
	require.NoError(t, err, "the tileset was read again")
	require.Equal(t, first, again)
	// A changed tileset.json is read again.
	require.NoError(t, os.WriteFile(p, []byte("{}"), 0o644))
	_, err = e.Estimate(context.Background(), j)
	require.Error(t, err)
}

// BenchmarkCreateEstimateUncached is BenchmarkCreateEstimate with a new
// Exporter for every create, so every create loads the tileset: what a
// create cost before Exporters kept their tilesets.
func BenchmarkCreateEstimateUncached(b *testing.B) {
	for _, depth := range []int{1, 8} {
		rec, n, size := quadtreeRecord(b, depth)
		b.Run(fmt.Sprintf("tiles=%d", n), func(b *testing.B) {
			j := job(b, rec, jobtest.Rect(34.10, 31.10, 34.11, 31.11))
			for b.Loop() {
				if _, err := New(Options{}).Estimate(context.Background(), j); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size), "tilesetBytes")
		})
	}
}
