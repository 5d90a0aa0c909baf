package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// results are the figures of one run.
type results struct {
	spec    string
	set     *contentSet
	servers []*server
	opts    options
	cold    map[string]pageLoad
	reload  map[string]pageLoad
	rps     map[string]map[string][]float64 // server -> "spec"/"bundle" -> requests/s of each run
	heap    map[string]heapStats
}

func newResults(spec string, set *contentSet, servers []*server, o options) *results {
	return &results{spec: spec, set: set, servers: servers, opts: o,
		cold: map[string]pageLoad{}, reload: map[string]pageLoad{},
		rps: map[string]map[string][]float64{}, heap: map[string]heapStats{}}
}

func (r *results) addRPS(server, what string, rps float64) {
	if r.rps[server] == nil {
		r.rps[server] = map[string][]float64{}
	}
	r.rps[server][what] = append(r.rps[server][what], rps)
}

// medianRPS is the median of a server's runs for a resource.
func (r *results) medianRPS(server, what string) float64 {
	runs := slices.Clone(r.rps[server][what])
	if len(runs) == 0 {
		return 0
	}
	slices.Sort(runs)
	if len(runs)%2 == 1 {
		return runs[len(runs)/2]
	}
	return (runs[len(runs)/2-1] + runs[len(runs)/2]) / 2
}

// print writes the table and the goals' verdicts.
func (r *results) print(out io.Writer, goVersion, goos, goarch string, cpus int) {
	fmt.Fprintf(out, "document: %s (%s source, %s JSON)\n", r.spec, kB(int64(r.set.SpecSize)), kB(int64(len(r.set.spec()))))
	fmt.Fprintf(out, "%s %s/%s, %d CPUs; loopback; Accept-Encoding: %s; throughput: %d connections, median of %d runs of %v\n\n",
		goVersion, goos, goarch, cpus, acceptEncoding, r.opts.concurrency, r.opts.rounds, r.opts.duration)

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
		row("  of bare's", func(n string) string { return ratio(r.medianRPS(n, what), r.medianRPS("bare", what)) })
	}
	row("heap in use after GC", func(n string) string { return mB(r.heap[n].HeapInuse) })
	row("live heap after GC", func(n string) string { return mB(r.heap[n].HeapAlloc) })
	row("  heap in use of bare's", func(n string) string {
		return ratio(float64(r.heap[n].HeapInuse), float64(r.heap["bare"].HeapInuse))
	})
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
		goal(r.medianRPS("viewer", what) >= 0.9*r.medianRPS("bare", what), "%s requests/s >= 0.9x bare's (%s)", what,
			ratio(r.medianRPS("viewer", what), r.medianRPS("bare", what)))
	}
	goal(float64(r.heap["viewer"].HeapInuse) <= 1.2*float64(r.heap["bare"].HeapInuse), "heap in use <= 1.2x bare's (%s)",
		ratio(float64(r.heap["viewer"].HeapInuse), float64(r.heap["bare"].HeapInuse)))
}

func kB(n int64) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }

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
