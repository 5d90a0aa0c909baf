package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// runSampled runs cmd and returns the peak of its RssAnon (anonymous
// resident memory, without the file pages it maps or caches), read from
// /proc/PID/status every 10 ms until it exits.
func runSampled(cmd *exec.Cmd) (int64, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var peak int64
	for {
		if v, ok := rssAnon(status); ok {
			peak = max(peak, v)
		}
		select {
		case err := <-done:
			return peak, err
		case <-tick.C:
		}
	}
}

// rssAnon reads the RssAnon line of a /proc status file, in bytes.
func rssAnon(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// sameFiles compares two files a megabyte at a time and returns their
// length, or an error naming the first difference.
func sameFiles(a, b string) (int64, error) {
	fa, err := os.Open(a)
	if err != nil {
		return 0, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return 0, err
	}
	defer fb.Close()
	ra, rb := bufio.NewReaderSize(fa, 1<<20), bufio.NewReaderSize(fb, 1<<20)
	x, y := make([]byte, 1<<20), make([]byte, 1<<20)
	var off int64
	for {
		n, errA := io.ReadFull(ra, x)
		m, errB := io.ReadFull(rb, y)
		if n != m || !bytes.Equal(x[:n], y[:m]) {
			return off, fmt.Errorf("the export differs from GDAL's cut in the megabyte at byte %d (%d and %d bytes read)", off, n, m)
		}
		off += int64(n)
		endA := errors.Is(errA, io.EOF) || errors.Is(errA, io.ErrUnexpectedEOF)
		endB := errors.Is(errB, io.EOF) || errors.Is(errB, io.ErrUnexpectedEOF)
		switch {
		case endA && endB:
			return off, nil
		case errA != nil && !endA:
			return off, errA
		case errB != nil && !endB:
			return off, errB
		}
	}
}
