// Command load measures the export task server under load, on loopback:
// it starts the server in-process on a SQLite file in a temporary
// directory (and on PostgreSQL when -postgres or EXPORTTASK_TEST_POSTGRES_DSN
// gives a database), then runs phases of creates, reads and list pages from
// -concurrency clients, each phase bounded by -duration and -count, and
// prints the throughput, p50/p99/max latency and error count of each.
//
//	cd bench && go run ./load                       # SQLite only
//	cd bench && go run ./load -sqlite-normal        # SQLite, FULL then NORMAL
//	cd bench && go run ./load -concurrency 32 -duration 10s -postgres postgres://...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run() error {
	var o options
	flag.IntVar(&o.concurrency, "concurrency", 32, "concurrent clients")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "longest time of each phase")
	flag.IntVar(&o.count, "count", 50000, "most requests of each phase")
	flag.DurationVar(&o.taskDuration, "task-duration", 30*time.Second, "simulated export time of the tasks the workers run meanwhile")
	flag.IntVar(&o.workers, "workers", 4, "export workers of the server")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `file`")
	normal := flag.Bool("sqlite-normal", false, "also measure SQLite with synchronous=NORMAL (no sync at commit), to show what FULL costs")
	pg := flag.String("postgres", os.Getenv("EXPORTTASK_TEST_POSTGRES_DSN"), "PostgreSQL DSN to measure too (default $EXPORTTASK_TEST_POSTGRES_DSN)")
	flag.Parse()
	if o.concurrency < 1 || o.count < 1 || o.duration <= 0 {
		return errors.New("-concurrency, -count and -duration must be positive")
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return fmt.Errorf("creating the CPU profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("starting the CPU profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o.logger = slog.New(slog.NewJSONHandler(io.Discard, nil))

	dir, err := os.MkdirTemp("", "exporttask-load-")
	if err != nil {
		return fmt.Errorf("creating a temporary directory: %w", err)
	}
	defer os.RemoveAll(dir)
	targets := []string{dir + "/load.db"}
	if *normal {
		targets = append(targets, "file:"+dir+"/normal.db?_pragma=synchronous(NORMAL)")
	}
	if *pg != "" {
		targets = append(targets, *pg)
	}
	fmt.Printf("load: %d clients, phases of at most %s or %d requests, %d export workers, GOMAXPROCS=%d\n",
		o.concurrency, o.duration, o.count, o.workers, gomaxprocs())
	for _, db := range targets {
		if err := measure(ctx, db, o); err != nil {
			return err
		}
	}
	return nil
}
