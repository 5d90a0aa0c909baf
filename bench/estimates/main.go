// Command estimates compares an exporter's estimate with the export it
// forecasts: it estimates the whole extent of one record, runs the real
// export into a temporary directory, and prints the estimated and real
// size and time.
//
//	go run ./estimates -raster /tmp/rxsrc -box 34,31,42.6,39.6 -zoom 10,13
//	go run ./estimates -dem /tmp/demwindow-40000x20000-int16-cog.tif
//	go run ./estimates -tiles3d /tmp/est3d -box 34,31,35,32 -zoom 7,11
//
// -raster names a directory holding a GeoPackage tiles.gpkg (as
// bench/rasterexport -keep writes it) whose footprint is -box and levels
// -zoom; -dem a GeoTIFF, whose record dem.Inspect reads; -tiles3d a
// directory whose tileset/ holds a 3D Tiles tileset, written there by
// tiles3d.WriteDemoSource over -box at levels -zoom when missing. -roi
// exports only a box of the record (west,south,east,north) instead of its
// whole extent.
//
// -runs N (default 1) runs the export N times through one export.CatalogExporter,
// as a server does: each run's estimate is the one a create would get at
// that moment, scaled by the Exporter's runs before it (the estimates
// follow the machine's speed, see export.CatalogExporter.Estimate); the first is
// the engine's own.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
)

func main() {
	rasterDir := flag.String("raster", "", "directory of a RASTER record's tiles.gpkg")
	box := flag.String("box", "34,31,35,32", "the RASTER record's footprint: west,south,east,north")
	zoom := flag.String("zoom", "10,13", "the RASTER record's levels: min,max")
	demPath := flag.String("dem", "", "a DEM GeoTIFF")
	tilesDir := flag.String("tiles3d", "", "directory of a 3D record's tileset/ (written when missing)")
	roi := flag.String("roi", "", "export only this box: west,south,east,north (default: the whole extent)")
	work := flag.String("work", os.TempDir(), "where the export is written (and removed after)")
	runs := flag.Int("runs", 1, "exports in a row, each estimated after those before it")
	flag.Parse()
	if err := run(*rasterDir, *box, *zoom, *demPath, *tilesDir, *roi, *work, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "estimates:", err)
		os.Exit(1)
	}
}

func run(rasterDir, box, zoom, demPath, tilesDir, roiBox, work string, runs int) error {
	ctx := context.Background()
	var rec catalog.Record
	var domain export.Engine
	var w, s, e, n float64
	if _, err := fmt.Sscanf(box, "%g,%g,%g,%g", &w, &s, &e, &n); err != nil {
		return fmt.Errorf("-box: %w", err)
	}
	var lo, hi int
	if _, err := fmt.Sscanf(zoom, "%d,%d", &lo, &hi); err != nil {
		return fmt.Errorf("-zoom: %w", err)
	}
	footprint := exporttask.NewPolygon([]exporttask.Position{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}})
	var roi *exporttask.FeatureCollection
	if roiBox != "" {
		var rw, rs, re, rn float64
		if _, err := fmt.Sscanf(roiBox, "%g,%g,%g,%g", &rw, &rs, &re, &rn); err != nil {
			return fmt.Errorf("-roi: %w", err)
		}
		roi = &exporttask.FeatureCollection{Type: exporttask.TypeFeatureCollection, Features: []exporttask.Feature{{
			Type: exporttask.TypeFeature, Properties: map[string]any{},
			Geometry: exporttask.NewPolygon([]exporttask.Position{{rw, rs}, {re, rs}, {re, rn}, {rw, rn}, {rw, rs}})}}}
	}
	switch {
	case rasterDir != "":
		rec = catalog.Record{Domain: exporttask.DomainRaster, Title: "estimates", MinZoom: lo, MaxZoom: hi, Location: rasterDir,
			Footprint: footprint}
		domain = raster.New(raster.Options{})
	case tilesDir != "":
		src := filepath.Join(tilesDir, tiles3d.SourceDir)
		if _, err := os.Stat(src); err != nil {
			if err := tiles3d.WriteDemoSource(tilesDir, catalog.Record{Domain: exporttask.Domain3D, Footprint: footprint,
				MinZoom: lo, MaxZoom: hi}); err != nil {
				return fmt.Errorf("writing the 3D source: %w", err)
			}
		}
		var err error
		if rec, err = tiles3d.Inspect(ctx, catalog.Source{Path: src}); err != nil {
			return err
		}
		domain = tiles3d.New(tiles3d.Options{})
	case demPath != "":
		var err error
		if rec, err = dem.Inspect(ctx, catalog.Source{Path: demPath}); err != nil {
			return err
		}
		domain = dem.New(dem.Options{})
	default:
		return fmt.Errorf("give -raster, -dem or -tiles3d")
	}
	rec.ID = "5b1c7e2a-0d4f-4a3b-9c8e-7f6a5b4c3d2e"
	exp, err := export.New(oneRecord{rec}, map[exporttask.Domain]export.Engine{rec.Domain: domain})
	if err != nil {
		return err
	}
	req := exporttask.CreateRequest{CatalogRecordID: rec.ID, Domain: rec.Domain, ROI: roi}
	for i := range runs {
		if err := once(ctx, exp, req, work, i+1); err != nil {
			return err
		}
	}
	return nil
}

// once estimates and runs the export of req, and prints both.
func once(ctx context.Context, exp *export.CatalogExporter, req exporttask.CreateRequest, work string, n int) error {
	start := time.Now()
	est, err := exp.Estimate(ctx, req)
	if err != nil {
		return err
	}
	fmt.Printf("run %d, load average %s: estimate: %d bytes, %d s (estimating took %v)\n", n, loadAverage(),
		est.Size, est.Time, time.Since(start).Round(time.Millisecond))
	dir, err := os.MkdirTemp(work, "estimates-")
	if err != nil {
		return err
	}
	if os.Getenv("ESTIMATES_KEEP") == "" {
		defer os.RemoveAll(dir)
	}
	files, err := filestore.Open(ctx, dir+"/artifacts")
	if err != nil {
		return err
	}
	start = time.Now()
	arts, err := exp.Export(ctx, exporttask.Task{ID: int64(n), CreateRequest: req, EstimatedTime: est.Time}, output{files})
	if err != nil {
		return err
	}
	took := time.Since(start)
	var size int64
	for _, a := range arts {
		size += a.Size
	}
	fmt.Printf("export:   %d bytes, %.1f s (load average %s at the end)\n", size, took.Seconds(), loadAverage())
	fmt.Printf("estimate/real: size %.3f, time %.2f\n", float64(est.Size)/float64(size), float64(est.Time)/took.Seconds())
	return nil
}

// oneRecord is a catalog of one record.
type oneRecord struct{ rec catalog.Record }

func (c oneRecord) Record(_ context.Context, id string) (catalog.Record, error) {
	if id != c.rec.ID {
		return catalog.Record{}, fmt.Errorf("record %s: %w", id, catalog.ErrNotFound)
	}
	return c.rec, nil
}

// loadAverage is the machine's load average over the last minute, from
// /proc/loadavg ("?" where it cannot be read).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// output writes an export's files into a file store under "1/", as a
// worker does (moving a finished file in where the exporter has one).
type output struct{ files *filestore.Store }

func (o output) Create(ctx context.Context, name string) (artifact.Writer, error) {
	return o.files.Create(ctx, "1/"+name)
}

func (o output) Progress(done, total int64) error { return nil }
