// Command viewer compares, on loopback and in one run, three ways to serve
// Swagger UI for the same OpenAPI document: this module's viewer,
// github.com/swaggo/http-swagger/v2, and a bare handler writing precomputed
// bytes (the ceiling). It prints, side by side, the bytes a cold page load
// transfers, how many requests of a reload are answered 304, requests/s
// for the document and for Swagger UI's bundle, and each server's heap in
// use after GC (each server measured in a process of its own).
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
	rounds      int           // throughput runs per server and resource; the median counts
	child       string        // internal: serve this server for the memory measurement
	content     string        // internal: the content file a child reads
}

func main() {
	var o options
	flag.StringVar(&o.spec, "spec", "../testdata/wild/petstore-expanded.yaml", "the OpenAPI document (YAML or JSON file)")
	flag.IntVar(&o.concurrency, "c", 32, "concurrent requests in the throughput runs")
	flag.DurationVar(&o.duration, "d", time.Second, "length of one throughput run")
	flag.IntVar(&o.rounds, "rounds", 5, "throughput runs per server and resource, servers interleaved; the median run counts")
	flag.StringVar(&o.child, "child", "", "internal: serve one server for the memory measurement (viewer, http-swagger or bare)")
	flag.StringVar(&o.content, "content", "", "internal: the content file written by the parent")
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

// run measures the three servers and prints the table.
func run(ctx context.Context, o options) error {
	if o.concurrency < 1 || o.duration <= 0 || o.rounds < 1 {
		return fmt.Errorf("-c, -d and -rounds must be positive")
	}
	set, v, err := newContentSet(o.spec)
	if err != nil {
		return err
	}
	servers, err := startServers(v, set)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range servers {
			s.close()
		}
	}()

	res := newResults(o.spec, set, servers, o)
	for _, s := range servers {
		if res.cold[s.name], err = coldLoad(ctx, s); err != nil {
			return fmt.Errorf("%s: cold load: %w", s.name, err)
		}
		// The viewer compresses in the background after Setup; asking for
		// every variant waits for that, so that no compression runs during
		// the measurements.
		if err := prime(ctx, res.cold[s.name]); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		if res.reload[s.name], err = reload(ctx, s, res.cold[s.name]); err != nil {
			return fmt.Errorf("%s: reload: %w", s.name, err)
		}
	}
	for _, what := range []string{"spec", "bundle"} {
		// Servers take turns, each round starting with the next one, so
		// that a change in the machine's load (it may be shared) falls on
		// all of them alike.
		for round := 0; round < o.rounds; round++ {
			for i := range servers {
				s := servers[(round+i)%len(servers)]
				u := res.cold[s.name].specURL
				if what == "bundle" {
					u = res.cold[s.name].bundleURL
				}
				rps, err := throughput(ctx, u, o.concurrency, o.duration)
				if err != nil {
					return fmt.Errorf("%s: %s throughput: %w", s.name, what, err)
				}
				res.addRPS(s.name, what, rps)
			}
		}
	}
	path, cleanup, err := set.writeFile()
	if err != nil {
		return err
	}
	defer cleanup()
	for _, s := range servers {
		if res.heap[s.name], err = measureHeap(ctx, s.name, o.spec, path); err != nil {
			return fmt.Errorf("%s: memory: %w", s.name, err)
		}
	}
	res.print(os.Stdout, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	return nil
}
