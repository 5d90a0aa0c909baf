package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// results are the figures of one run.
type results struct {
	spec   string
	set    *contentSet
	opts   options
	cold   map[string]pageLoad
	reload map[string]pageLoad
	rps    map[string]map[string][]float64 // server -> "spec"/"bundle" -> requests/s of each run
	load   map[string]map[string]*loadTotal
	heap   map[string]heapStats
	// Resident sets: once the page load was served in every encoding, and
	// after the throughput runs.
	rssLoaded, rssEnd map[string]memory
}

// loadTotal sums a server's throughput runs for one resource.
type loadTotal struct {
	requests int64
	cpu      time.Duration // the server process's CPU time
}

func (l *loadTotal) cpuPerRequest() time.Duration {
	if l == nil || l.requests == 0 {
		return 0
	}
	return l.cpu / time.Duration(l.requests)
}

func newResults(spec string, set *contentSet, o options) *results {
	return &results{spec: spec, set: set, opts: o,
		cold: map[string]pageLoad{}, reload: map[string]pageLoad{},
		rps: map[string]map[string][]float64{}, load: map[string]map[string]*loadTotal{},
		heap: map[string]heapStats{}, rssLoaded: map[string]memory{}, rssEnd: map[string]memory{}}
}

// addRun records one throughput run: its rate, requests and the server's
// CPU time during it.
func (r *results) addRun(server, what string, rps float64, requests int64, cpu time.Duration) {
	if r.rps[server] == nil {
		r.rps[server] = map[string][]float64{}
		r.load[server] = map[string]*loadTotal{}
	}
	r.rps[server][what] = append(r.rps[server][what], rps)
	if r.load[server][what] == nil {
		r.load[server][what] = &loadTotal{}
	}
	r.load[server][what].requests += requests
	r.load[server][what].cpu += cpu
}

// medianRPS is the median of a server's runs for a resource.
func (r *results) medianRPS(server, what string) float64 {
	return median(r.rps[server][what])
}

// ratioTo is the median, over the rounds, of a server's requests/s divided
// by base's in the same round. Runs of one round are next to each other in
// time, so a change in the machine's load (it may be shared) moves both
// sides of each ratio alike.
func (r *results) ratioTo(server, base, what string) float64 {
	runs, of := r.rps[server][what], r.rps[base][what]
	ratios := make([]float64, 0, len(runs))
	for i := range min(len(runs), len(of)) {
		if of[i] > 0 {
			ratios = append(ratios, runs[i]/of[i])
		}
	}
	return median(ratios)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// print writes the table and the goals' verdicts.
func (r *results) print(out io.Writer, goVersion, goos, goarch string, cpus int) {
	fmt.Fprintf(out, "document: %s (%s source, %s JSON)\n", r.spec, kB(int64(r.set.SpecSize)), kB(int64(len(r.set.spec()))))
	fmt.Fprintf(out, "%s %s/%s, %d CPUs; loopback; Accept-Encoding: %s; throughput: %d connections, %d rounds of %v runs per server, medians\n",
		goVersion, goos, goarch, cpus, acceptEncoding, r.opts.concurrency, r.opts.rounds, r.opts.duration)
	fmt.Fprintf(out, "each server in a process of its own; heap after GC once every file of the page load and the YAML were served in br, gzip and identity;\n")
	fmt.Fprintf(out, "peak RSS: VmHWM of the server's process (/proc), after the page loads and after the throughput runs;\n")
	fmt.Fprintf(out, "bare holds bytes compressed by this process, so its RSS is that of holding them\n")
	fmt.Fprintf(out, "server CPU per request: the server process's user+system time (/proc) over all runs / requests\n\n")

	names := serverNames()
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(label string, cell func(name string) string) {
		cells := []string{label}
		for _, n := range names {
			cells = append(cells, cell(n))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	row("", func(n string) string { return n })
	row("cold load: requests", func(n string) string { return fmt.Sprint(len(r.cold[n].responses)) })
	row("cold load: body bytes", func(n string) string { return kB(r.cold[n].bodyBytes()) })
	row("cold load: wire bytes", func(n string) string { return kB(r.cold[n].wire) })
	hs := r.cold["http-swagger"].wire
	row("  of http-swagger's", func(n string) string { return pct(r.cold[n].wire, hs) })
	row("reload: 304 answers", func(n string) string {
		return fmt.Sprintf("%d/%d", r.reload[n].notModified(), len(r.reload[n].responses))
	})
	row("reload: wire bytes", func(n string) string { return kB(r.reload[n].wire) })
	for _, what := range []string{"spec", "bundle"} {
		row(what+": requests/s", func(n string) string { return fmt.Sprintf("%.0f", r.medianRPS(n, what)) })
		row("  of bare's (median of ratios)", func(n string) string { return fmt.Sprintf("%.2fx", r.ratioTo(n, "bare", what)) })
		row("  server CPU per request", func(n string) string { return micros(r.load[n][what].cpuPerRequest()) })
		row("  of bare's", func(n string) string {
			return ratio(float64(r.load[n][what].cpuPerRequest()), float64(r.load["bare"][what].cpuPerRequest()))
		})
	}
	row("heap in use after GC", func(n string) string { return mB(r.heap[n].HeapInuse) })
	row("live heap after GC", func(n string) string { return mB(r.heap[n].HeapAlloc) })
	row("  heap in use of bare's", func(n string) string {
		return ratio(float64(r.heap[n].HeapInuse), float64(r.heap["bare"].HeapInuse))
	})
	row("peak RSS after the page loads", func(n string) string { return mB(r.rssLoaded[n].Peak) })
	row("  of bare's", func(n string) string {
		return ratio(float64(r.rssLoaded[n].Peak), float64(r.rssLoaded["bare"].Peak))
	})
	row("peak RSS at the end", func(n string) string { return mB(r.rssEnd[n].Peak) })
	row("  of bare's", func(n string) string {
		return ratio(float64(r.rssEnd[n].Peak), float64(r.rssEnd["bare"].Peak))
	})
	row("RSS at the end", func(n string) string { return mB(r.rssEnd[n].Current) })
	_ = tw.Flush()

	v := r.cold["viewer"]
	fmt.Fprintln(out)
	fmt.Fprintln(out, "goals (viewer):")
	goal := func(ok bool, format string, args ...any) {
		mark := "met   "
		if !ok {
			mark = "MISSED"
		}
		fmt.Fprintf(out, "  %s %s\n", mark, fmt.Sprintf(format, args...))
	}
	goal(v.wire*4 <= hs, "cold load %s <= 25%% of http-swagger's %s (%s)", kB(v.wire), kB(hs), pct(v.wire, hs))
	goal(r.reload["viewer"].notModified() == len(r.reload["viewer"].responses), "every reload request a 304 (%d/%d)",
		r.reload["viewer"].notModified(), len(r.reload["viewer"].responses))
	for _, what := range []string{"spec", "bundle"} {
		goal(r.ratioTo("viewer", "bare", what) >= 0.9, "%s requests/s >= 0.9x bare's (%.2fx; %.2fx of bare+headers')", what,
			r.ratioTo("viewer", "bare", what), r.ratioTo("viewer", "bare+headers", what))
	}
	rssGoal := r.rssGoal()
	goal(float64(r.rssEnd["viewer"].Peak) <= rssGoal*float64(r.rssEnd["bare"].Peak), "peak RSS <= %.1fx bare's (%s)", rssGoal,
		ratio(float64(r.rssEnd["viewer"].Peak), float64(r.rssEnd["bare"].Peak)))
	goal(float64(r.rssLoaded["viewer"].Peak) <= maxLoadedRSS*float64(r.rssLoaded["bare"].Peak),
		"peak RSS after the page loads <= %.1fx bare's (%s)", maxLoadedRSS,
		ratio(float64(r.rssLoaded["viewer"].Peak), float64(r.rssLoaded["bare"].Peak)))
	goal(float64(r.heap["viewer"].HeapInuse) <= 1.2*float64(r.heap["bare"].HeapInuse), "heap in use <= 1.2x bare's (%s)",
		ratio(float64(r.heap["viewer"].HeapInuse), float64(r.heap["bare"].HeapInuse)))
}

// rssGoal is issue 18's bound on the viewer's peak resident set, as a
// multiple of the bare server's: 1.2x (set for petstore-expanded), and 2x
// for a document of more than a megabyte of JSON (set for GitHub's 13 MB
// description).
func (r *results) rssGoal() float64 {
	if len(r.set.spec()) > 1<<20 {
		return 2
	}
	return 1.2
}

// maxLoadedRSS is issue 27's bound on the viewer's peak resident set once
// the page load and the YAML were served in every encoding, before the
// throughput runs (which raise the bare server's peak too), as a multiple
// of the bare server's at the same point.
const maxLoadedRSS = 1.5

// maxBinaryGrowth is issue 18's bound on what the viewer adds to a program
// serving one document with plain net/http.
const maxBinaryGrowth = 4_000_000

// printSummary writes the viewer's figures against the bare server's for
// each document, and the binary sizes.
func printSummary(out io.Writer, all []*results, sizes *binarySizes) {
	fmt.Fprintln(out, "summary: the viewer against the ceiling (bare: precomputed bytes), YAML and both encodings requested")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "document\tpeak RSS viewer / bare\tgoal\tafter the page loads\tgoal\tspec req/s of bare's\tbundle req/s of bare's\tcold load (wire)\t")
	var missed []string
	for _, r := range all {
		v, b := r.rssEnd["viewer"].Peak, r.rssEnd["bare"].Peak
		rss := float64(v) / float64(b)
		specRatio, bundleRatio := r.ratioTo("viewer", "bare", "spec"), r.ratioTo("viewer", "bare", "bundle")
		lv, lb := r.rssLoaded["viewer"].Peak, r.rssLoaded["bare"].Peak
		loaded := float64(lv) / float64(lb)
		fmt.Fprintf(tw, "%s\t%s / %s = %.2fx\t<= %.1fx\t%s / %s = %.2fx\t<= %.1fx\t%.2fx\t%.2fx\t%s\t\n", filepath.Base(r.spec),
			mB(v), mB(b), rss, r.rssGoal(), mB(lv), mB(lb), loaded, maxLoadedRSS, specRatio, bundleRatio, kB(r.cold["viewer"].wire))
		if rss > r.rssGoal() {
			missed = append(missed, fmt.Sprintf("%s: peak RSS %.2fx > %.1fx", filepath.Base(r.spec), rss, r.rssGoal()))
		}
		if loaded > maxLoadedRSS {
			missed = append(missed, fmt.Sprintf("%s: peak RSS after the page loads %.2fx > %.1fx", filepath.Base(r.spec), loaded, maxLoadedRSS))
		}
		for what, x := range map[string]float64{"spec": specRatio, "bundle": bundleRatio} {
			if x < 0.9 {
				missed = append(missed, fmt.Sprintf("%s: %s requests/s %.2fx < 0.9x", filepath.Base(r.spec), what, x))
			}
		}
	}
	_ = tw.Flush()
	if sizes != nil {
		fmt.Fprintf(out, "\nbinary (go build, %s/%s): plain net/http %s; viewer %s (+%s = %d bytes, goal <= +%s)", runtime.GOOS, runtime.GOARCH,
			mB(uint64(sizes.plain)), mB(uint64(sizes.viewer)), mB(uint64(sizes.viewer-sizes.plain)), sizes.viewer-sizes.plain, mB(maxBinaryGrowth))
		if sizes.own > 0 {
			fmt.Fprintf(out, "; viewer with SwaggerUI = %s's files embedded %s (+%s)", sizes.ownDist, mB(uint64(sizes.own)), mB(uint64(sizes.own-sizes.plain)))
		}
		fmt.Fprintln(out)
		if sizes.viewer-sizes.plain > maxBinaryGrowth {
			missed = append(missed, "binary growth over the goal")
		}
	}
	if len(missed) == 0 {
		fmt.Fprintln(out, "every goal met")
		return
	}
	fmt.Fprintln(out, "MISSED: "+strings.Join(missed, "; "))
}

func kB(n int64) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }

func micros(d time.Duration) string {
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}

func mB(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

func pct(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a/b)
}
