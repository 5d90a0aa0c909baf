// Command rasterexport measures the RASTER exporter against SQLite's own
// copy of the same tile rows, each run as a child process whose peak
// anonymous memory is sampled.
//
//	cd bench && go run ./rasterexport                 # about 220,000 tiles, 5 rounds
//	go run ./rasterexport -rounds 7 -keep /var/tmp/rasterexport
//
// It builds a source GeoPackage once (real shaded-relief PNG tiles of the
// demo terrain, reused across the grid; kept and reused with -keep), then
// runs interleaved rounds of the contenders, each in a fresh directory:
//
//   - export: raster.Exporter.Export of the whole record (selection,
//     GeoPackage, thumbnails, metadata) into the server's file artifact
//     store (package filestore: the GeoPackage moved in and hashed, every
//     file synced at commit), in a child process (this program, -child);
//   - export-discard: the same export into an output that drops what it is
//     given (the GeoPackage is still built, read back and hashed): the
//     export without the cost of storing its files;
//   - sqlite3: the sqlite3 command-line shell copying the same rows with
//     one INSERT … SELECT from the attached source into a new file with the
//     export's tile table, at its default settings;
//   - sqlite3-tuned: the same with the settings of the export's scratch
//     file (page_size 65536, journal_mode OFF, synchronous OFF);
//   - copy-sql: the same INSERT … SELECT through modernc.org/sqlite (the
//     exporter's driver), in a child process;
//   - export-tms (with -tms): the export of the same tiles laid out as a TMS
//     directory.
//
// For each it prints the median time, the speed of the export against it,
// and the peak RssAnon of the process.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
)

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds of each contender")
	size := flag.Float64("size", 8.6, "footprint side in degrees (8.6 makes about 220,000 tiles at levels 10..13)")
	keep := flag.String("keep", "", "build the source in this directory and keep it; reused when already there")
	tms := flag.Bool("tms", false, "also export the same tiles from a TMS directory")
	roi := flag.String("roi", "", "export this box (west,south,east,north degrees) instead of the whole record; the sqlite3 contenders copy the same tiles")
	only := flag.String("contenders", "", "comma-separated names of the contenders to run besides export (default: all)")
	child := flag.String("child", "", "internal: run one contender (export, export-discard, export-tms or copy-sql) in this process")
	cpuprofile := flag.String("cpuprofile", "", "with -child: write a CPU profile of the contender to this file")
	flag.Parse()
	if *child != "" {
		if err := runProfiled(*cpuprofile, func() error { return runChild(*child, flag.Args()) }); err != nil {
			fmt.Fprintln(os.Stderr, "rasterexport:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*rounds, *size, *keep, *tms, *only, *roi); err != nil {
		fmt.Fprintln(os.Stderr, "rasterexport:", err)
		os.Exit(1)
	}
}

func run(rounds int, size float64, keep string, withTMS bool, only, roi string) error {
	area, err := parseBox(roi)
	if err != nil {
		return err
	}
	if area != nil && strings.Contains(only, "copy-sql") {
		return fmt.Errorf("copy-sql copies every tile; -roi leaves it out")
	}
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
	rec, tiles, built, err := buildSource(srcDir, size)
	if err != nil {
		return fmt.Errorf("building the source: %w", err)
	}
	st, err := os.Stat(sourcePath(rec))
	if err != nil {
		return err
	}
	how := "built"
	if !built {
		how = "found"
	}
	fmt.Printf("rasterexport: source %d tiles, %.1f MB, levels %d..%d, %s in %v; GOMAXPROCS=%d\n",
		tiles, mb(st.Size()), rec.MinZoom, rec.MaxZoom, how, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))

	ctx := context.Background()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	sqlite3, err := findSQLite3()
	if err != nil {
		return err
	}
	gpkg, _, err := register(ctx, rec, catalog.Source{Path: sourcePath(rec), Format: raster.FormatGPKG})
	if err != nil {
		return err
	}
	where := ""
	if area != nil {
		where = area.where(rec.MinZoom, rec.MaxZoom)
		fmt.Printf("rasterexport: the ROI %s, the tiles%s\n", roi, where)
	}
	if err := saveRecord(srcDir, "export", gpkg); err != nil {
		return err
	}
	contenders := []contender{
		{name: "export", cmd: childCmd(self, "export", srcDir, roi)},
		{name: "export-discard", cmd: childCmd(self, "export-discard", srcDir, roi)},
		{name: "sqlite3", cmd: sqlite3Cmd(sqlite3, sourcePath(rec), "", where)},
		{name: "sqlite3-tuned", cmd: sqlite3Cmd(sqlite3, sourcePath(rec), tunedPragmas, where)},
		{name: "copy-sql", cmd: childCmd(self, "copy-sql", srcDir, "")},
	}
	if withTMS {
		tmsDir := filepath.Join(srcDir, "tms")
		if err := buildTMS(ctx, rec, tmsDir); err != nil {
			return fmt.Errorf("building the TMS directory: %w", err)
		}
		tms, inspect, err := register(ctx, rec, catalog.Source{Path: tmsDir, Format: raster.FormatTMS})
		if err != nil {
			return err
		}
		fmt.Printf("rasterexport: the same tiles as a TMS directory; raster.Inspect took %v\n", inspect.Round(time.Millisecond))
		if err := saveRecord(srcDir, "export-tms", tms); err != nil {
			return err
		}
		contenders = append(contenders, contender{name: "export-tms", cmd: childCmd(self, "export-tms", srcDir, roi)})
	}
	if only != "" {
		want := strings.Split("export,"+only, ",")
		contenders = slices.DeleteFunc(contenders, func(c contender) bool { return !slices.Contains(want, c.name) })
	}
	if rounds == 0 {
		return nil
	}
	res, err := measure(ctx, work, contenders, rounds)
	if err != nil {
		return err
	}
	report(res, contenders, tiles, st.Size())
	return nil
}

// runChild runs one contender in this process: args are the source
// directory (with the records the parent registered) and the output
// directory.
func runChild(name string, args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("-child %s wants the source directory and the output directory", name)
	}
	work, out := args[0], args[1]
	ctx := context.Background()
	switch name {
	case "export", "export-tms":
		rec, err := loadRecord(work, name)
		if err != nil {
			return err
		}
		store, err := filestore.Open(ctx, filepath.Join(out, "store"))
		if err != nil {
			return err
		}
		return runExport(ctx, rec, storeOutput{store}, out)
	case "export-discard":
		rec, err := loadRecord(work, "export")
		if err != nil {
			return err
		}
		return runExport(ctx, rec, &dirOutput{dir: out, discard: true}, out)
	case "copy-sql":
		rec, err := loadRecord(work, "export")
		if err != nil {
			return err
		}
		return copySQL(ctx, rec.Source.Path, out)
	}
	return fmt.Errorf("no contender %q", name)
}

// runProfiled runs fn, with a CPU profile written to path if it is not
// empty.
func runProfiled(path string, fn func() error) error {
	if path == "" {
		return fn()
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	return fn()
}

func mb(n int64) float64 { return float64(n) / 1e6 }
