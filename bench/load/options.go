package main

import (
	"log/slog"
	"runtime"
	"time"
)

// options are the load program's settings.
type options struct {
	concurrency  int
	duration     time.Duration
	count        int
	taskDuration time.Duration
	workers      int
	quota        int64  // each customer's storage quota, bytes; 0: none
	pgbench      string // the pgbench program; empty: look for it
	createsOnly  bool   // run only the create phase
	logger       *slog.Logger
}

func gomaxprocs() int { return runtime.GOMAXPROCS(0) }
