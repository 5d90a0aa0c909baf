package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// memory is a child's resident set, from /proc/<pid>/status.
type memory struct {
	Peak    uint64 // VmHWM: the largest resident set since the process started
	Current uint64 // VmRSS
}

// rss reads the child's resident set. VmHWM counts every page the process
// ever had resident at once (Go heap, stacks, the binary's touched pages),
// which is what a container's memory limit sees; the heap figures leave
// out memory the Go runtime has not yet given back.
func (c *child) rss() (memory, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/status")
	if err != nil {
		return memory{}, fmt.Errorf("reading the child's memory: %w", err)
	}
	var m memory
	var found int
	for _, line := range bytes.Split(b, []byte("\n")) {
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		var dst *uint64
		switch string(key) {
		case "VmHWM":
			dst = &m.Peak
		case "VmRSS":
			dst = &m.Current
		default:
			continue
		}
		f := bytes.Fields(val)
		if len(f) != 2 || string(f[1]) != "kB" {
			return memory{}, fmt.Errorf("unexpected /proc status line %q", line)
		}
		n, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("unexpected /proc status line %q", line)
		}
		*dst = n * 1024
		found++
	}
	if found != 2 {
		return memory{}, fmt.Errorf("no VmHWM and VmRSS in /proc/%d/status", c.cmd.Process.Pid)
	}
	return m, nil
}
