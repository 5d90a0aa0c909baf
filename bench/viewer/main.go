// Command viewer compares, on loopback and in one run, ways to serve
// Swagger UI for the same OpenAPI document: this module's viewer,
// github.com/swaggo/http-swagger/v2, and a bare handler writing precomputed
// bytes (the ceiling), also run with the viewer's extra response header
// fields (bare+headers). It prints, side by side, the bytes a cold page
// load transfers, how many requests of a reload are answered 304,
// requests/s and server CPU per request for the document and for Swagger
// UI's bundle, each server's heap in use after GC and its peak resident
// set (VmHWM). Every server runs in a process of its own.
//
//	cd bench && go run ./viewer
//	cd bench && go run ./viewer -spec "$(../scripts/fetch-github-spec.sh)"
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"
)

// options are the command line flags.
type options struct {
	spec        string        // the OpenAPI document
	concurrency int           // goroutines sending requests in the throughput runs
	duration    time.Duration // length of one throughput run
	rounds      int           // throughput runs per server and resource; medians count
	child       string        // internal: serve this server for the memory measurement
	content     string        // internal: the content directory a child reads
}

func main() {
	var o options
	flag.StringVar(&o.spec, "spec", "../testdata/wild/petstore-expanded.yaml", "the OpenAPI document (YAML or JSON file)")
	flag.IntVar(&o.concurrency, "c", 32, "concurrent requests in the throughput runs")
	flag.DurationVar(&o.duration, "d", 300*time.Millisecond, "length of one throughput run")
	flag.IntVar(&o.rounds, "rounds", 15, "throughput runs per server and resource, servers taking turns; medians count")
	flag.StringVar(&o.child, "child", "", "internal: serve one server for the memory measurement (viewer, http-swagger or bare)")
	flag.StringVar(&o.content, "content", "", "internal: the content directory written by the parent")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if o.child != "" {
		err = runChild(ctx, o)
	} else {
		err = run(ctx, o)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "bench/viewer:", err)
		os.Exit(1)
	}
}

// run measures the three servers and prints the table. Each server runs
// in a child process (this program again, with -child), so that its heap
// and its CPU time are its own; this process is the client.
func run(ctx context.Context, o options) error {
	if o.concurrency < 1 || o.duration <= 0 || o.rounds < 1 {
		return fmt.Errorf("-c, -d and -rounds must be positive")
	}
	set, err := newContentSet(o.spec)
	if err != nil {
		return err
	}
	path, cleanup, err := set.writeFile()
	if err != nil {
		return err
	}
	defer cleanup()
	var children []*child
	defer func() {
		for _, c := range children {
			c.stop()
		}
	}()
	for _, name := range serverNames() {
		c, err := startChild(ctx, name, o.spec, path)
		if err != nil {
			return err
		}
		children = append(children, c)
	}

	res := newResults(o.spec, set, o)
	for _, c := range children {
		cold, err := coldLoad(ctx, c.pageURL)
		if err != nil {
			return fmt.Errorf("%s: cold load: %w", c.name, err)
		}
		res.cold[c.name] = cold
		// Every variant made before the heap is measured and before the
		// load runs: the viewer compresses in the background after Setup.
		if err := prime(ctx, cold); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if res.heap[c.name], err = c.heap(ctx); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if res.rssLoaded[c.name], err = c.rss(); err != nil {
			return err
		}
		if res.reload[c.name], err = reload(ctx, cold); err != nil {
			return fmt.Errorf("%s: reload: %w", c.name, err)
		}
	}
	for _, what := range []string{"spec", "bundle"} {
		// Servers take turns, each round starting with the next one, so
		// that a change in the machine's load (it may be shared) falls on
		// all of them alike.
		for round := 0; round < o.rounds; round++ {
			for i := range children {
				c := children[(round+i)%len(children)]
				u := res.cold[c.name].specURL
				if what == "bundle" {
					u = res.cold[c.name].bundleURL
				}
				before, err := c.cpuTime()
				if err != nil {
					return err
				}
				n, rps, err := throughput(ctx, u, o.concurrency, o.duration)
				if err != nil {
					return fmt.Errorf("%s: %s throughput: %w", c.name, what, err)
				}
				after, err := c.cpuTime()
				if err != nil {
					return err
				}
				res.addRun(c.name, what, rps, n, after-before)
			}
		}
	}
	for _, c := range children {
		if res.rssEnd[c.name], err = c.rss(); err != nil {
			return err
		}
	}
	res.print(os.Stdout, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	return nil
}
