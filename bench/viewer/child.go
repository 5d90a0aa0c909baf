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
	"strconv"
	"strings"
	"time"
)

// child is one server running in a process of its own: its memory is then
// its own, and its CPU time can be read from /proc while it is under load.
type child struct {
	name    string
	pageURL string
	base    string // scheme and host
	cmd     *exec.Cmd
	stdin   io.Closer // closing it stops the child
}

// startChild starts this program again as a child serving one server, and
// waits for it to listen.
func startChild(ctx context.Context, name, spec, content string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, "-child", name, "-spec", spec, "-content", content)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("child %s: %w", name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("child %s: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting child %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, stdin: stdin}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		c.stop()
		return nil, fmt.Errorf("reading child %s's address: %w", name, err)
	}
	pageURL, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if !ok {
		c.stop()
		return nil, fmt.Errorf("unexpected line from child %s: %q", name, line)
	}
	c.pageURL = pageURL
	c.base = pageURL[:len("http://")+strings.IndexByte(pageURL[len("http://"):], '/')]
	return c, nil
}

// stop closes the child's stdin and waits for it to exit.
func (c *child) stop() {
	_ = c.stdin.Close()
	done := make(chan struct{})
	go func() {
		_ = c.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}

// clockTicks is the unit of /proc/<pid>/stat's CPU times (USER_HZ), 100 on
// every Linux platform Go supports.
const clockTicks = 100

// cpuTime returns the CPU time (user and system) the child has used so far.
func (c *child) cpuTime() (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0, fmt.Errorf("reading the child's CPU time: %w", err)
	}
	// The command name, in parentheses, may contain spaces: the fields
	// are counted after its closing parenthesis; utime and stime are the
	// 14th and 15th of the line.
	rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc stat line %q", b)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc stat line %q", b)
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// heapStats is a child's heap after a forced GC.
type heapStats struct {
	HeapInuse uint64 `json:"heapInuse"` // bytes in in-use spans
	HeapAlloc uint64 `json:"heapAlloc"` // bytes of live objects
}

// heapPath is the child's extra route that reports its heap.
const heapPath = "/bench/heap"

// heap asks the child for its heap after a forced GC.
func (c *child) heap(ctx context.Context) (heapStats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+heapPath, nil)
	if err != nil {
		return heapStats{}, fmt.Errorf("asking for the heap: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
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

// prime requests every file of a page load, and the extra URLs, in each
// encoding a client may ask for (brotli, gzip, none), so that a server that
// makes its variants lazily or in the background has made them all.
func prime(ctx context.Context, load pageLoad, extra []string) error {
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer c.CloseIdleConnections()
	urls := extra
	for _, r := range load.responses {
		urls = append(urls, r.url)
	}
	for _, u := range urls {
		for _, enc := range []string{"br", "gzip", ""} {
			if err := getWith(ctx, c, u, enc); err != nil {
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
