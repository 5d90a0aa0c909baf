// Command fairness measures how long small exports of one customer take
// while another customer's whole-extent exports hold every general
// worker: real DEM exports (package export/dem) of a COG that GDAL builds,
// run by a worker.Runner over a SQLite store, in two configurations in
// alternating rounds: the Runner's defaults (workers reserved for small
// tasks, and the large exports paced while small ones run) and a baseline
// (-baseline): the same without the pacing (LargeTurns -1), or without the
// reserved workers (SmallWorkers -1).
//
//	go run ./fairness -size 24000 -rounds 2
//	go run ./fairness -src /tmp/demwindow-40000x20000-int16-cog.tif -rounds 2
//
// The whole extent must be estimated over the Runner's SmallTask (10 s) for
// the whole-extent exports to be large tasks: at the DEM exporter's 100
// MB/s, a source of at least about 20,000² Int16 pixels (a 16,000² one is
// estimated 7 s). -src takes any one-band EPSG:4326 GeoTIFF; the
// exports' boxes come from its footprint.
//
// Each round starts a Runner, creates as many whole-extent exports of
// customer "big" as there are general workers, waits until they all run,
// then creates the small exports of customer "small" (each a 0.01° box at
// a different place) and records, for each, the time from its create to
// its finish (the store's createdAt and finishedAt). A round ends when the
// small exports are done or after -timeout; then the Runner stops (the
// large exports are cancelled).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"
)

func main() {
	size := flag.Int("size", 8000, "width and height of the source DEM, pixels")
	src := flag.String("src", "", "the source COG, built here when missing (default: in the temporary directory, by size)")
	rounds := flag.Int("rounds", 2, "alternating rounds of each configuration")
	small := flag.Int("small", 20, "small exports per round")
	workers := flag.Int("workers", 4, "general workers (and whole-extent exports)")
	timeout := flag.Duration("timeout", 3*time.Minute, "how long a round waits for its small exports")
	smallWorkers := flag.Int("small-workers", 0, "the Runner's SmallWorkers (0: its default)")
	largeTurns := flag.Int("large-turns", 0, "the Runner's LargeTurns in the first configuration (0: its default)")
	baseline := flag.String("baseline", "unpaced", "the configuration run in alternate rounds: unpaced (LargeTurns -1: the large exports are not held back while small ones run), unreserved (no worker reserved for small tasks, SmallWorkers -1), or none")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fairness:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "fairness:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *src == "" {
		*src = fmt.Sprintf("%s/fairness-%d-int16-cog.tif", os.TempDir(), *size)
	}
	start := time.Now()
	if err := buildSource(*src, *size); err != nil {
		fmt.Fprintln(os.Stderr, "fairness:", err)
		os.Exit(1)
	}
	fmt.Printf("fairness: source %s (ready in %v); GOMAXPROCS=%d\n",
		*src, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))
	b := bench{src: *src, small: *small, workers: *workers, timeout: *timeout}
	results := map[string][]time.Duration{}
	configs := []config{{name: fmt.Sprintf("defaults (SmallWorkers %d, LargeTurns %d)", *smallWorkers, *largeTurns),
		smallWorkers: *smallWorkers, largeTurns: *largeTurns}}
	switch *baseline {
	case "unpaced":
		configs = append(configs, config{name: "unpaced (LargeTurns -1)", smallWorkers: *smallWorkers, largeTurns: -1})
	case "unreserved":
		configs = append(configs, config{name: "no reserved worker (SmallWorkers -1)", smallWorkers: -1, largeTurns: *largeTurns})
	case "none":
	default:
		fmt.Fprintln(os.Stderr, "fairness: -baseline is unpaced, unreserved or none")
		os.Exit(2)
	}
	for r := range *rounds {
		for _, c := range configs {
			before := loadAverage()
			lat, info, err := b.round(c)
			if err != nil {
				fmt.Fprintln(os.Stderr, "fairness:", err)
				return
			}
			fmt.Printf("round %d, %s: %s; load average (1 min) %s at the start, %s at the end; %s\n",
				r+1, c.name, summary(lat, *small), before, loadAverage(), info)
			results[c.name] = append(results[c.name], lat...)
		}
	}
	for _, c := range configs {
		fmt.Printf("all rounds, %s: %s\n", c.name, summary(results[c.name], *small**rounds))
	}
}

// loadAverage is the machine's load average over the last minute, from
// /proc/loadavg ("?" where it cannot be read).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
