// Command demwindow measures the DEM exporter against GDAL on a window of
// a large Cloud Optimized GeoTIFF.
//
//	cd bench && go run ./demwindow               # -case window, 5 rounds
//	go run ./demwindow -case whole -rounds 3     # all of a 40,000×20,000 source
//	go run ./demwindow -case window10k -rounds 3 # 10,000² of it
//
// It builds, once, the case's Int16 COG (512×512 tiles, Deflate) with
// GDAL and keeps it at -src (in /tmp by default); registers it with
// dem.Inspect; then, in alternating rounds, exports the window through the
// DEM exporter in a child process (this program run with -child) and cuts
// the same window with `gdal_translate -projwin … -of COG -co
// COMPRESS=DEFLATE`. It prints each contender's median wall time (process
// start to exit, both sides), the time ratio, peak RSS (getrusage) and
// peak RssAnon (sampled from /proc/PID/status every 10 ms), and the bytes
// the export read from the source (counted by a wrapping ReaderAt) against
// the stored bytes of the tiles the window meets. The first round's two
// outputs are compared sample for sample through `gdal_translate -of
// ENVI`.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	rounds := flag.Int("rounds", 5, "alternating rounds of each contender")
	name := flag.String("case", "window", "what to export: window (1,024² of a 20,000² source), window10k (10,000² of a 40,000×20,000 source), whole (all of it) or warp (1,024² warped from a 20,000² UTM source)")
	src := flag.String("src", "", "the source COG, built here when missing (default: the case's file in /tmp)")
	child := flag.String("child", "", "internal: export the job described by this JSON and print the figures")
	check := flag.Bool("check", true, "compare the first round's export with GDAL's cut, sample for sample")
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
		bc, ok := cases[*name]
		if !ok {
			fmt.Fprintf(os.Stderr, "demwindow: -case %q: want window, window10k, whole or warp\n", *name)
			os.Exit(2)
		}
		if *src == "" {
			*src = bc.srcPath
		}
		err = run(bc, *src, *rounds, *cpuprofile, *check)
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "demwindow:", err)
		os.Exit(1)
	}
}
