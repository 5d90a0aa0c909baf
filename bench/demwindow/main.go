// Command demwindow measures the DEM exporter against GDAL on a window of
// a large Cloud Optimized GeoTIFF.
//
//	cd bench && go run ./demwindow               # 5 rounds
//	go run ./demwindow -rounds 9 -src /tmp/my-cog.tif
//
// It builds, once, a 20,000×20,000 Int16 COG (512×512 tiles, Deflate) with
// GDAL and keeps it at -src; registers it with dem.Inspect; then, in
// alternating rounds, exports a 1,024×1,024 window through the DEM
// exporter in a child process (this program run with -child) and cuts the
// same window with `gdal_translate -projwin … -of COG -co COMPRESS=DEFLATE`.
// It prints each contender's median wall time (process start to exit, both
// sides), the time ratio, the child's peak RSS, and the bytes the export
// read from the source (counted by a wrapping ReaderAt) against the stored
// bytes of the tiles the window meets. The first round's two outputs are
// compared sample for sample through `gdal_translate -of ENVI`.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	rounds := flag.Int("rounds", 5, "alternating rounds of each contender")
	src := flag.String("src", "/tmp/demwindow-20000-int16-cog.tif", "the source COG, built here when missing")
	child := flag.String("child", "", "internal: export the job described by this JSON and print the figures")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of each export (its child process) to this file")
	flag.Parse()
	if *child != "" && *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "demwindow:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	var err error
	if *child != "" {
		err = runChild(*child)
	} else {
		err = run(*src, *rounds, *cpuprofile)
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "demwindow:", err)
		os.Exit(1)
	}
}
