// Command rasterexport measures the RASTER exporter against a bare copy of
// the same tile rows between two SQLite files.
//
//	cd bench && go run ./rasterexport            # about 10,000 tiles, 5 rounds
//	go run ./rasterexport -rounds 9 -keep /tmp/src
//
// It builds a source GeoPackage once (real shaded-relief PNG tiles of the
// demo terrain, reused across the grid), then runs interleaved rounds of
// the export (the whole record: GeoPackage, thumbnails, metadata, streamed
// to a directory output), of the export of the same tiles from a TMS
// directory (as gdal2tiles lays them out), and of two bare copies of the
// same rows in one transaction, and prints the median of each.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds of each contender")
	size := flag.Float64("size", 1.9, "footprint side in degrees (1.9 makes about 10,000 tiles at levels 10..13)")
	keep := flag.String("keep", "", "build the source in this directory and keep it (default: a temporary directory)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the rounds to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "rasterexport:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*rounds, *size, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "rasterexport:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(rounds int, size float64, keep string) error {
	work, err := os.MkdirTemp("", "rasterexport-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	srcDir := keep
	if srcDir == "" {
		srcDir = work
	}

	start := time.Now()
	rec, tiles, err := buildSource(srcDir, size)
	if err != nil {
		return fmt.Errorf("building the source: %w", err)
	}
	st, err := os.Stat(sourcePath(rec))
	if err != nil {
		return err
	}
	fmt.Printf("rasterexport: source %d tiles, %.1f MB, levels %d..%d, built in %v; GOMAXPROCS=%d\n",
		tiles, mb(st.Size()), rec.MinZoom, rec.MaxZoom, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))

	ctx := context.Background()
	tmsDir := filepath.Join(srcDir, "tms")
	if err := buildTMS(ctx, rec, tmsDir); err != nil {
		return fmt.Errorf("building the TMS directory: %w", err)
	}
	_, inspectGPKG, err := register(ctx, rec, catalog.Source{Path: sourcePath(rec), Format: raster.FormatGPKG})
	if err != nil {
		return err
	}
	tms, inspectTMS, err := register(ctx, rec, catalog.Source{Path: tmsDir, Format: raster.FormatTMS})
	if err != nil {
		return err
	}
	fmt.Printf("rasterexport: the same tiles as a TMS directory; raster.Inspect took %v (GeoPackage), %v (TMS)\n",
		inspectGPKG.Round(time.Millisecond), inspectTMS.Round(time.Millisecond))

	contenders := []contender{
		{"export", func(ctx context.Context, dir string) (int64, int64, error) { return runExport(ctx, rec, dir) }},
		{"export-tms", func(ctx context.Context, dir string) (int64, int64, error) { return runExport(ctx, tms, dir) }},
		{"copy-rows", func(ctx context.Context, dir string) (int64, int64, error) {
			return copyRows(ctx, sourcePath(rec), dir)
		}},
		{"copy-sql", func(ctx context.Context, dir string) (int64, int64, error) { return copySQL(ctx, sourcePath(rec), dir) }},
	}
	res, err := measure(ctx, work, contenders, rounds)
	if err != nil {
		return err
	}
	report(res, contenders)
	return nil
}

func mb(n int64) float64 { return float64(n) / 1e6 }
