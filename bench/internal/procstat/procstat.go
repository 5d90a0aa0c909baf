// Package procstat runs a benchmark's child process and samples its
// anonymous resident memory (RssAnon in /proc/PID/status: the memory it
// allocated, without the file pages it maps or caches) while it runs. It
// is the one way the programs under bench/ measure a contender's peak
// memory. Linux only: elsewhere the peak reads 0.
package procstat

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Result is what Run measured of one process.
type Result struct {
	Wall time.Duration // from start to exit
	CPU  time.Duration // user and system time
	// PeakRssAnon is the largest RssAnon sampled, in bytes.
	PeakRssAnon int64
}

// Run starts cmd, reads its RssAnon every interval until it exits, and
// returns what it measured. When ctx ends first, Run kills the process
// and returns ctx's error. Unless cmd.Stderr is set, the process's
// standard error is kept and quoted in the error of a failed run.
func Run(ctx context.Context, cmd *exec.Cmd, every time.Duration) (Result, error) {
	var stderr bytes.Buffer
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	tick := time.NewTicker(every)
	defer tick.Stop()
	var peak int64
	for {
		if n, ok := RssAnon(status); ok {
			peak = max(peak, n)
		}
		select {
		case err := <-done:
			r := Result{Wall: time.Since(start), PeakRssAnon: peak,
				CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
			if err != nil {
				return r, fmt.Errorf("%s: %w: %s", cmd.Path, err, strings.TrimSpace(stderr.String()))
			}
			return r, nil
		case <-tick.C:
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			<-done
			return Result{}, ctx.Err()
		}
	}
}

// RssAnon reads the RssAnon line of a /proc/PID/status file, in bytes;
// ok is false when the file or the line cannot be read (the process has
// exited, or this is not Linux).
func RssAnon(path string) (n int64, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if rest, found := strings.CutPrefix(line, "RssAnon:"); found {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
