package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/internal/geom"
	"github.com/openapi-viewer/viewer/exporttask/internal/testout"
)

// The benchmarks' ROI: a box inside the demo footprint (lon 34–35, lat
// 31–32), plain or with holesX × holesY triangular holes, 12,000 of them:
// 48,005 positions, within exporttask.MaxPositions.
var roiBox = geom.BBox{West: 34.1, South: 31.1, East: 34.9, North: 31.9}

const holesX, holesY = 120, 100

// holedROI returns roiBox with nx × ny triangular holes, one in each cell
// of an nx × ny grid over it; nx = 0 gives the plain box.
func holedROI(nx, ny int) *exporttask.FeatureCollection {
	b := roiBox
	rings := [][]exporttask.Position{{{b.West, b.South}, {b.East, b.South}, {b.East, b.North}, {b.West, b.North}, {b.West, b.South}}}
	w, h := b.Width()/float64(max(nx, 1)), b.Height()/float64(max(ny, 1))
	round := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	for i := range nx {
		for k := range ny {
			x, y := b.West+float64(i)*w, b.South+float64(k)*h
			a := exporttask.Position{round(x + 0.1*w), round(y + 0.1*h)}
			rings = append(rings, []exporttask.Position{a,
				{round(x + 0.8*w), round(y + 0.15*h)}, {round(x + 0.2*w), round(y + 0.85*h)}, a})
		}
	}
	return roi(exporttask.NewPolygon(rings...))
}

// benchJob builds the job of exporting rec with the plain or the holed ROI.
func benchJob(b *testing.B, rec catalog.Record, holes bool) export.Job {
	b.Helper()
	r := holedROI(0, 0)
	if holes {
		r = holedROI(holesX, holesY)
	}
	req := exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: r, ArtifactCRS: exporttask.CRS4326,
		Webhook: []exporttask.Webhook{{URL: "https://example.com/hook", Events: []exporttask.Event{exporttask.EventCompleted}}}}
	j, err := export.NewJob(rec, req)
	require.NoError(b, err)
	return j
}

// loop runs f b.N times, reporting the process's CPU time per run beside
// the wall time (cpu-ns/op): on a shared machine the wall time varies with
// the other processes' load far more.
func loop(b *testing.B, f func()) {
	b.Helper()
	start := cpuTime()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// naive is a Job's area as plain geometry, answering as Job.Contains and
// Job.IntersectsBox did before the index: every edge of the footprint and
// ROI for each query. The benchmarks' baseline.
type naive struct {
	box     geom.BBox
	fp, roi geom.MultiPolygon
}

// naiveOf converts j's footprint and ROI.
func naiveOf(t testing.TB, j export.Job) naive {
	t.Helper()
	fp, err := export.FromGeometry(j.Record().Footprint)
	require.NoError(t, err)
	roi, err := export.FromROI(j.Request().ROI)
	require.NoError(t, err)
	return naive{box: j.Box(), fp: fp, roi: roi}
}

func (n naive) contains(lon, lat float64) bool {
	return n.box.ContainsPoint(lon, lat) && n.fp.ContainsPoint(lon, lat) && (n.roi == nil || n.roi.ContainsPoint(lon, lat))
}

func (n naive) intersectsBox(b geom.BBox) bool {
	return n.box.Intersects(b) && n.fp.IntersectsBox(b) && (n.roi == nil || n.roi.IntersectsBox(b))
}

// BenchmarkInsideRow masks the demo DEM's grid (1/1200°: the ROI's box is
// 960 × 960 pixels) with the plain and the 12,000-hole ROI, and reports
// the cost of a row. The naive baseline tests each pixel against every
// edge, as Job.Contains did; it masks only the first 8 rows (the figure is
// per row).
func BenchmarkInsideRow(b *testing.B) {
	rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32), Resolution: 1.0 / 1200}
	const res = 1.0 / 1200
	width, height := int(roiBox.Width()/res), int(roiBox.Height()/res)
	for _, bc := range []struct {
		name         string
		holes, naive bool
	}{{"plain", false, false}, {"holes", true, false}, {"plain/naive", false, true}, {"holes/naive", true, true}} {
		b.Run(bc.name, func(b *testing.B) {
			j := benchJob(b, rec, bc.holes)
			nv := naiveOf(b, j)
			in := make([]bool, width)
			rows := height
			if bc.naive {
				rows = 8
			}
			lon0 := roiBox.West + res/2
			start := cpuTime()
			for b.Loop() {
				for y := range rows {
					lat := roiBox.North - (float64(y)+0.5)*res
					if bc.naive {
						for x := range in {
							in[x] = nv.contains(lon0+float64(float64(x)*res), lat)
						}
						continue
					}
					j.InsideRow(lat, lon0, res, in)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N*rows), "cpu-ns/row")
			if !bc.naive {
				b.ReportMetric(float64(j.MaskTime(int64(rows), int64(rows*width)).Nanoseconds())/float64(rows), "model-ns/row")
			}
		})
	}
}

// BenchmarkExportDEM exports the demo DEM (1/1200°) with the plain ROI and
// with the 12,000-hole ROI of the same box, through the dem exporter, and
// estimates both: the goal is that holes cost at most 2× the plain ROI.
func BenchmarkExportDEM(b *testing.B) {
	rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32),
		Resolution: 1.0 / 1200, Location: b.TempDir()}
	require.NoError(b, dem.WriteDemoSource(rec.Location, rec))
	reg, err := dem.Inspect(context.Background(), catalog.Source{Path: filepath.Join(rec.Location, dem.DemoFile)})
	require.NoError(b, err)
	rec.Source = reg.Source
	e := dem.New(dem.Options{})
	for _, holes := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "holes"}[holes]
		j := benchJob(b, rec, holes)
		b.Run("export/"+name, func(b *testing.B) {
			loop(b, func() {
				if _, err := e.Export(context.Background(), j, testout.New(b.TempDir())); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run("estimate/"+name, func(b *testing.B) {
			loop(b, func() {
				j := benchJob(b, rec, holes) // a fresh job, as each create makes
				if _, err := e.Estimate(context.Background(), j); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkExportRaster exports and estimates the demo RASTER record
// (levels 0..10) with the plain and the 12,000-hole ROI: tile selection and
// the thumbnails' masks.
func BenchmarkExportRaster(b *testing.B) {
	rec := catalog.Record{ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32),
		MinZoom: 0, MaxZoom: 10, Location: b.TempDir()}
	require.NoError(b, raster.WriteDemoSource(rec.Location, rec))
	x := raster.New(raster.Options{TempDir: b.TempDir()})
	for _, holes := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "holes"}[holes]
		j := benchJob(b, rec, holes)
		b.Run("export/"+name, func(b *testing.B) {
			loop(b, func() {
				if _, err := x.Export(context.Background(), j, testout.New(b.TempDir())); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run("estimate/"+name, func(b *testing.B) {
			loop(b, func() {
				if _, err := x.Estimate(context.Background(), benchJob(b, rec, holes)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkIntersectsBox selects the tiles of levels 0..14 of the EPSG:4326
// grid (two tiles at level 0) that meet the plain or the 12,000-hole ROI,
// as a RASTER export does, and reports the cost of a tile. The naive
// baseline tests every edge for each tile, as Job.IntersectsBox did; it
// stops at level 12.
func BenchmarkIntersectsBox(b *testing.B) {
	rec := catalog.Record{ID: rasterID, Domain: exporttask.DomainRaster, Footprint: square(34, 31, 35, 32), MaxZoom: 14}
	for _, bc := range []struct {
		name         string
		holes, naive bool
	}{{"plain", false, false}, {"holes", true, false}, {"plain/naive", false, true}, {"holes/naive", true, true}} {
		b.Run(bc.name, func(b *testing.B) {
			j := benchJob(b, rec, bc.holes)
			nv := naiveOf(b, j)
			maxZoom := 14
			if bc.naive {
				maxZoom = 12
			}
			tiles, selected := 0, 0
			start := cpuTime()
			loop(b, func() {
				tiles, selected = 0, 0
				for z := range maxZoom + 1 {
					size := 180 / math.Exp2(float64(z))
					for row := int(math.Floor((90 - j.Box().North) / size)); row <= int((90-j.Box().South)/size); row++ {
						for col := int(math.Floor((j.Box().West + 180) / size)); col <= int((j.Box().East+180)/size); col++ {
							t := geom.BBox{West: -180 + float64(col)*size, North: 90 - float64(row)*size,
								East: -180 + float64(col+1)*size, South: 90 - float64(row+1)*size}
							tiles++
							var ok bool
							if bc.naive {
								ok = nv.intersectsBox(t)
							} else {
								ok = j.IntersectsBox(t)
							}
							if ok {
								selected++
							}
						}
					}
				}
			})
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tiles), "ns/tile")
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N*tiles), "cpu-ns/tile")
			b.ReportMetric(float64(selected), "selected")
		})
	}
}

// BenchmarkCreateHoles runs the create path of a request with the
// 12,000-hole ROI and of one with the plain ROI: decoding the JSON body
// (which validates it), NewJob and the DEM estimate.
func BenchmarkCreateHoles(b *testing.B) {
	rec := catalog.Record{ID: demID, Domain: exporttask.DomainDEM, Footprint: square(34, 31, 35, 32),
		Resolution: 1.0 / 1200, Location: b.TempDir()}
	require.NoError(b, dem.WriteDemoSource(rec.Location, rec))
	reg, err := dem.Inspect(context.Background(), catalog.Source{Path: filepath.Join(rec.Location, dem.DemoFile)})
	require.NoError(b, err)
	rec.Source = reg.Source
	e := dem.New(dem.Options{})
	for _, holes := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "holes"}[holes]
		body, err := json.Marshal(benchJob(b, rec, holes).Request())
		require.NoError(b, err)
		b.Run("decode/"+name, func(b *testing.B) {
			loop(b, func() {
				if _, err := exporttask.DecodeCreateRequest(bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			})
		})
		req, err := exporttask.DecodeCreateRequest(bytes.NewReader(body))
		require.NoError(b, err)
		b.Run("newjob/"+name, func(b *testing.B) {
			loop(b, func() {
				if _, err := export.NewJob(rec, req); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run("estimate/"+name, func(b *testing.B) {
			loop(b, func() {
				j, err := export.NewJob(rec, req)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.Estimate(context.Background(), j); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
