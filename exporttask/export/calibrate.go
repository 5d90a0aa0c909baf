package export

import (
	"errors"
	"slices"
	"sync"
	"time"
)

// Time estimates follow the machine. Each engine's estimate assumes the
// speed its exports reach on a quiet machine (bench/README.md, section
// estimates), but the same export takes several times as long on a loaded
// one (7 to 21 times on the shared 2-core development machine between
// load averages of 1.4 and 30), so no fixed speed is within 2× everywhere.
// The CatalogExporter therefore learns, per domain, how long the exports of this
// process really take against their estimates: after each export that
// succeeds it re-estimates the job (the create path's cheap estimate: no
// source I/O proportional to the source) and keeps the ratio of the real
// time to that estimate; a new estimate is the engine's, times the median
// of the last calibrationWindow ratios. The real time is the export's as
// the worker runs it: beside the process's other exports, and paced while
// small ones run (see Pace). The learning lives in the
// CatalogExporter (one per process, shared by its creates and its workers), not
// in package state, and starts again from the quiet-machine speeds when
// the process starts.

// calibrationWindow is how many recent exports of a domain the factor
// is taken from.
const calibrationWindow = 8

// calibrateFrom is the shortest estimate, in seconds, that is learned
// from and scaled: an estimate of 1 s stands for any export of a second
// or less (estimates are whole seconds), whose time is its fixed costs
// (files created, synced and committed) more than its work, and such small
// exports must stay small tasks however loaded the machine.
const calibrateFrom = 2

// errSmall stands for the estimate not made of a small task's job at
// export (see CatalogExporter.Export).
var errSmall = errors.New("export: a small task is not calibrated")

// The bounds of the factor: a stuck or paused export (a machine
// suspended, a debugger) must not make every later estimate absurd.
const (
	minFactor = 0.25
	maxFactor = 32
)

// calibration is the learned factor of one domain. It is safe for
// concurrent use.
type calibration struct {
	mu     sync.Mutex
	ratios []float64 // the last calibrationWindow ratios, oldest first
}

// factor is the median of the ratios kept, within [minFactor,
// maxFactor]; 1 without any.
func (c *calibration) factor() float64 {
	c.mu.Lock()
	r := slices.Clone(c.ratios)
	c.mu.Unlock()
	if len(r) == 0 {
		return 1
	}
	slices.Sort(r)
	m := r[len(r)/2]
	if len(r)%2 == 0 {
		m = (r[len(r)/2-1] + m) / 2
	}
	return min(max(m, minFactor), maxFactor)
}

// scale returns the estimate of secs seconds at the learned factor,
// rounded up to whole seconds; estimates under calibrateFrom are returned
// as they are.
func (c *calibration) scale(secs int64) int64 {
	if secs < calibrateFrom {
		return secs
	}
	return max(1, int64(float64(secs)*c.factor()+0.999))
}

// observe keeps the ratio of took, the real time of an export, to
// estimated, its estimate in seconds before scaling.
func (c *calibration) observe(estimated int64, took time.Duration) {
	if estimated < calibrateFrom || took <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ratios) == calibrationWindow {
		c.ratios = c.ratios[1:]
	}
	c.ratios = append(c.ratios, took.Seconds()/float64(estimated))
}
