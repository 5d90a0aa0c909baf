package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// heapStats is a child's heap after a forced GC, once it has served every
// file the page loads in every encoding.
type heapStats struct {
	HeapInuse uint64 `json:"heapInuse"` // bytes in in-use spans
	HeapAlloc uint64 `json:"heapAlloc"` // bytes of live objects
}

// heapPath is the child's extra route that reports its heap.
const heapPath = "/bench/heap"

// measureHeap starts this program again as a child serving one server,
// loads the page through it in every encoding, and asks it for its heap.
// One process per server keeps the others' memory out of the figure.
func measureHeap(ctx context.Context, name, spec, content string) (heapStats, error) {
	exe, err := os.Executable()
	if err != nil {
		return heapStats{}, fmt.Errorf("finding this program: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-child", name, "-spec", spec, "-content", content)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe() // closing it tells the child to stop
	if err != nil {
		return heapStats{}, fmt.Errorf("child: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return heapStats{}, fmt.Errorf("child: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return heapStats{}, fmt.Errorf("starting the child: %w", err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()

	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return heapStats{}, fmt.Errorf("reading the child's address: %w", err)
	}
	pageURL, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if !ok {
		return heapStats{}, fmt.Errorf("unexpected line from the child: %q", line)
	}
	s := &server{name: name, pageURL: pageURL}
	load, err := coldLoad(ctx, s)
	if err != nil {
		return heapStats{}, err
	}
	if err := prime(ctx, load); err != nil {
		return heapStats{}, err
	}
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer c.CloseIdleConnections()
	base := pageURL[:strings.Index(pageURL[len("http://"):], "/")+len("http://")]
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+heapPath, nil)
	if err != nil {
		return heapStats{}, fmt.Errorf("asking for the heap: %w", err)
	}
	res, err := c.Do(req)
	if err != nil {
		return heapStats{}, fmt.Errorf("asking for the heap: %w", err)
	}
	defer res.Body.Close()
	var st heapStats
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		return heapStats{}, fmt.Errorf("decoding the heap figures: %w", err)
	}
	return st, nil
}

// prime requests every file of a page load in each encoding a client may
// ask for (brotli, gzip, none), so that a server that makes its variants
// lazily or in the background has made them all.
func prime(ctx context.Context, load pageLoad) error {
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer c.CloseIdleConnections()
	for _, r := range load.responses {
		for _, enc := range []string{"br", "gzip", ""} {
			if err := getWith(ctx, c, r.url, enc); err != nil {
				return err
			}
		}
	}
	return nil
}

func getWith(ctx context.Context, c *http.Client, u, encoding string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	res, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s (%q): status %d", u, encoding, res.StatusCode)
	}
	_, err = discard(res.Body)
	return err
}

// runChild serves one server on loopback, with the heap report at
// heapPath, prints "ready <page URL>" and runs until its stdin closes.
func runChild(ctx context.Context, o options) error {
	var set *contentSet
	if o.child != "viewer" {
		var err error
		if set, err = readContentSet(o.content); err != nil {
			return err
		}
	}
	h, page, err := newHandler(o.child, o.spec, set)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+heapPath, func(w http.ResponseWriter, _ *http.Request) {
		runtime.GC()
		debug.FreeOSMemory()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(heapStats{HeapInuse: m.HeapInuse, HeapAlloc: m.HeapAlloc})
	})
	mux.Handle("/", h)
	s, err := listen(o.child, mux, page)
	if err != nil {
		return err
	}
	defer s.close()
	fmt.Println("ready " + s.pageURL)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	<-ctx.Done()
	return nil
}
