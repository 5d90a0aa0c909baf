package main

import (
	"fmt"
	"slices"
	"time"
)

// result is the outcome of one phase.
type result struct {
	store, phase  string
	requests      int
	errors        int64
	firstErr      string
	elapsed       time.Duration
	p50, p99, max time.Duration
}

func summarize(store, phase string, perWorker [][]time.Duration, elapsed time.Duration) result {
	var all []time.Duration
	for _, l := range perWorker {
		all = append(all, l...)
	}
	slices.Sort(all)
	r := result{store: store, phase: phase, requests: len(all), elapsed: elapsed}
	if len(all) > 0 {
		r.p50 = all[len(all)*50/100]
		r.p99 = all[min(len(all)-1, len(all)*99/100)]
		r.max = all[len(all)-1]
	}
	return r
}

// rate is the requests per second.
func (r result) rate() float64 { return float64(r.requests) / r.elapsed.Seconds() }

func (r result) String() string {
	s := fmt.Sprintf("%-13s %-6s %7d requests in %6.2fs  %8.0f/s  p50 %7s  p99 %7s  max %7s  errors %d",
		r.store, r.phase, r.requests, r.elapsed.Seconds(), float64(r.requests)/r.elapsed.Seconds(),
		round(r.p50), round(r.p99), round(r.max), r.errors)
	if r.firstErr != "" {
		s += "\n         first error: " + r.firstErr
	}
	return s
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= 10*time.Microsecond:
		return d.Round(10 * time.Microsecond)
	}
	return d
}
