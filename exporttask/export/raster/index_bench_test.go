package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/jobtest"
)

// benchSourceEnv names a GeoPackage of tiles at levels 10..13 over lon
// 34–42.6, lat 31–39.6 (bench/rasterexport's source, 205,166 tiles) for
// BenchmarkCreateEstimate to use instead of writing one of small tiles.
const benchSourceEnv = "VIEWER_BENCH_RASTER_GPKG"

// benchRecord returns a record without a registered source whose
// tiles.gpkg holds the tiles over lon west..west+size, lat 31..31+size at
// levels minZoom..maxZoom: written, each tile a small PNG, or for the
// large source the file benchSourceEnv names, linked into the record's
// directory.
func benchRecord(b *testing.B, size float64, minZoom, maxZoom int, useEnv bool) (catalog.Record, int64) {
	b.Helper()
	rec := catalog.Record{ID: indexTestID, Domain: exporttask.DomainRaster, MinZoom: minZoom, MaxZoom: maxZoom,
		Footprint: exporttask.NewPolygon([]exporttask.Position{{34, 31}, {34 + size, 31}, {34 + size, 31 + size},
			{34, 31 + size}, {34, 31}}), Location: b.TempDir()}
	if p := os.Getenv(benchSourceEnv); useEnv && p != "" {
		if err := os.Symlink(p, filepath.Join(rec.Location, SourceName)); err != nil {
			b.Fatal(err)
		}
		return rec, -1
	}
	img := image.NewNRGBA(image.Rect(0, 0, TileSize, TileSize))
	for y := range TileSize {
		img.SetNRGBA(y, y, color.NRGBA{R: uint8(y), A: 255}) // a few hundred bytes of PNG
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	tile := buf.Bytes()
	n, err := WriteSource(rec.Location, rec, func(int, int64, int64) ([]byte, error) { return tile, nil })
	if err != nil {
		b.Fatal(err)
	}
	return rec, n
}

// BenchmarkCreateEstimate is the source work of a create (the estimate)
// of a RASTER record, for a pyramid of 7 tiles and one of 205,166
// (levels 10..13 over 8.6°×8.6°; with VIEWER_BENCH_RASTER_GPKG naming
// bench/rasterexport's source, that file), for a small region (0.1°×0.1°)
// and the whole record:
//
//   - index: the estimate of a create, the record's selection index read
//     once by the Exporter (its first estimate, not timed);
//   - indexFile: the first create of a new Exporter (a restarted server):
//     the index read from its file, then the estimate;
//   - select: the selection from the source that estimates made before
//     the index, and that exports still make.
func BenchmarkCreateEstimate(b *testing.B) {
	type src struct {
		size             float64
		minZoom, maxZoom int
	}
	for _, s := range []src{{1, 5, 8}, {8.6, 10, 13}} {
		rec, n := benchRecord(b, s.size, s.minZoom, s.maxZoom, s.maxZoom == 13)
		for _, roi := range []struct {
			name string
			roi  *exporttask.FeatureCollection
		}{{"small", jobtest.Rect(34.4, 31.4, 34.5, 31.5)}, {"whole", nil}} {
			j := jobtest.Job(b, rec, roi.roi)
			name := fmt.Sprintf("tiles=%d/roi=%s", n, roi.name)
			if n < 0 {
				name = "tiles=" + benchSourceEnv + "/roi=" + roi.name
			}
			x := New(Options{})
			start := time.Now()
			first, err := x.Estimate(b.Context(), j) // builds the index and writes its file
			if err != nil {
				b.Fatal(err)
			}
			built := time.Since(start)
			b.Run(name+"/index", func(b *testing.B) {
				for b.Loop() {
					if _, err := x.Estimate(b.Context(), j); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(first.Size), "estimatedBytes")
				b.ReportMetric(built.Seconds(), "firstEstimateSeconds")
			})
			b.Run(name+"/indexFile", func(b *testing.B) {
				for b.Loop() {
					if _, err := New(Options{}).Estimate(b.Context(), j); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/select", func(b *testing.B) {
				minZoom, maxZoom, err := exportLevels(j.Record(), j.Request().Parameters)
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					s, err := openSource(b.Context(), rec)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := selectTiles(b.Context(), s, j, minZoom, maxZoom); err != nil {
						b.Fatal(err)
					}
					s.Close()
				}
			})
		}
	}
}
