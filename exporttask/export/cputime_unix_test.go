//go:build unix

package export_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used, which a
// shared machine's load changes less than the wall time benchmarks measure.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
