// Command viewer compares, on loopback and in one run, ways to serve
// Swagger UI for the same OpenAPI documents (petstore-expanded and GitHub's
// 13 MB description by default): this module's viewer,
// github.com/swaggo/http-swagger/v2, and a bare handler writing precomputed
// bytes (the ceiling), also run with the viewer's extra response header
// fields (bare+headers). It prints, side by side, the bytes a cold page
// load transfers, how many requests of a reload are answered 304,
// requests/s and server CPU per request for the document and for Swagger
// UI's bundle, each server's heap in use after GC and its peak resident
// set (VmHWM) once every file of the page load and the document's YAML
// were served in br, gzip and identity. Every server runs in a process of
// its own. It ends with a summary of the viewer against the bare server
// for each document and with the size of a program serving one document
// with the viewer against the same program with plain net/http.
//
//	cd bench && go run ./viewer
//	cd bench && go run ./viewer -spec ../testdata/wild/petstore-expanded.yaml
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"time"
)

// options are the command line flags.
type options struct {
	spec        string        // the OpenAPI documents, comma-separated ("github": GitHub's description)
	concurrency int           // goroutines sending requests in the throughput runs
	duration    time.Duration // length of one throughput run
	rounds      int           // throughput runs per server and resource; medians count
	noSize      bool          // skip the binary sizes
	child       string        // internal: serve this server for the memory measurement
	content     string        // internal: the content directory a child reads
}

func main() {
	var o options
	flag.StringVar(&o.spec, "spec", "../testdata/wild/petstore-expanded.yaml,github",
		"the OpenAPI documents (YAML or JSON files), comma-separated; github is GitHub's description: $VIEWER_GITHUB_SPEC, else fetched by ../scripts/fetch-github-spec.sh")
	flag.IntVar(&o.concurrency, "c", 32, "concurrent requests in the throughput runs")
	flag.DurationVar(&o.duration, "d", 300*time.Millisecond, "length of one throughput run")
	flag.IntVar(&o.rounds, "rounds", 15, "throughput runs per server and resource, servers taking turns; medians count")
	flag.BoolVar(&o.noSize, "no-size", false, "skip the binary-size measurement (it builds three programs)")
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

// run measures the servers for each document and prints a table for each,
// then the summary.
func run(ctx context.Context, o options) error {
	if o.concurrency < 1 || o.duration <= 0 || o.rounds < 1 {
		return fmt.Errorf("-c, -d and -rounds must be positive")
	}
	var all []*results
	for _, spec := range strings.Split(o.spec, ",") {
		path, err := resolveSpec(spec)
		if err != nil {
			return err
		}
		res, err := measure(ctx, o, path)
		if err != nil {
			return err
		}
		res.print(os.Stdout, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
		fmt.Println()
		all = append(all, res)
	}
	var sizes *binarySizes
	if !o.noSize {
		var err error
		if sizes, err = measureBinarySizes(ctx); err != nil {
			return err
		}
	}
	printSummary(os.Stdout, all, sizes)
	return nil
}

// resolveSpec returns the file of a -spec entry: "github" is GitHub's
// description, from $VIEWER_GITHUB_SPEC or fetched with npm by
// ../scripts/fetch-github-spec.sh.
func resolveSpec(spec string) (string, error) {
	if spec != "github" {
		return spec, nil
	}
	if p := os.Getenv("VIEWER_GITHUB_SPEC"); p != "" {
		return p, nil
	}
	out, err := exec.Command("../scripts/fetch-github-spec.sh").Output()
	if err != nil {
		return "", fmt.Errorf("fetching GitHub's description (../scripts/fetch-github-spec.sh; or set VIEWER_GITHUB_SPEC): %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// measure measures the servers for one document. Each server runs in a
// child process (this program again, with -child), so that its heap and
// its CPU time are its own; this process is the client.
func measure(ctx context.Context, o options, spec string) (*results, error) {
	o.spec = spec
	set, err := newContentSet(o.spec)
	if err != nil {
		return nil, err
	}
	path, cleanup, err := set.writeFile()
	if err != nil {
		return nil, err
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
			return nil, err
		}
		children = append(children, c)
	}

	res := newResults(o.spec, set, o)
	for _, c := range children {
		cold, err := coldLoad(ctx, c.pageURL)
		if err != nil {
			return nil, fmt.Errorf("%s: cold load: %w", c.name, err)
		}
		res.cold[c.name] = cold
		// Every variant made before the heap is measured and before the
		// load runs, the document's YAML included (http-swagger serves
		// none): the viewer makes each on its first request.
		extra := []string{c.base + set.YAMLPath}
		if c.name == "http-swagger" {
			extra = nil
		}
		if err := prime(ctx, cold, extra); err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		if res.heap[c.name], err = c.heap(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		if res.rssLoaded[c.name], err = c.rss(); err != nil {
			return nil, err
		}
		if res.reload[c.name], err = reload(ctx, cold); err != nil {
			return nil, fmt.Errorf("%s: reload: %w", c.name, err)
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
					return nil, err
				}
				n, rps, err := throughput(ctx, u, o.concurrency, o.duration)
				if err != nil {
					return nil, fmt.Errorf("%s: %s throughput: %w", c.name, what, err)
				}
				after, err := c.cpuTime()
				if err != nil {
					return nil, err
				}
				res.addRun(c.name, what, rps, n, after-before)
			}
		}
	}
	for _, c := range children {
		if res.rssEnd[c.name], err = c.rss(); err != nil {
			return nil, err
		}
	}
	return res, nil
}
