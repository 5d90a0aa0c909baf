// Command load measures the export task server under load, on loopback:
// it starts the server in-process on a SQLite file in a temporary
// directory (and on PostgreSQL when -postgres or EXPORTTASK_TEST_POSTGRES_DSN
// gives a database), then runs phases of creates, reads and list pages from
// -concurrency clients, each phase bounded by -duration and -count, and
// prints the throughput, p50/p99/max latency and error count of each.
// Every client is of one customer. On PostgreSQL it then runs pgbench on
// the same server, as many clients for as long, each transaction one
// INSERT of a task's JSON document into a table of the store's schema, and
// prints its throughput next to the creates' and their ratio: what the
// server does against what the database alone sustains for such a row.
// -quota gives the customer a storage quota (creates then check it under
// the customer's lock); -creates-only runs the create phase alone;
// -log-errors prints the server's error log lines. The clients speak
// HTTP/1.1 themselves, with bodies encoded ahead (see conn), so that the
// load generator's share of the two cores stays small.
//
//	cd bench && go run ./load                       # SQLite only
//	cd bench && go run ./load -sqlite-normal        # SQLite, FULL then NORMAL
//	cd bench && go run ./load -concurrency 32 -duration 10s -postgres postgres://...
//	cd bench && go run ./load -sqlite=false -quota 1000000000000000 -postgres postgres://...
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
	flag.Int64Var(&o.quota, "quota", 0, "each customer's storage quota in bytes (0: none); with one, creates of a customer take its lock")
	flag.StringVar(&o.pgbench, "pgbench", "", "the pgbench program (default: from $PATH or /usr/lib/postgresql/*/bin)")
	sqliteToo := flag.Bool("sqlite", true, "measure on SQLite too (-sqlite=false: PostgreSQL only)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `file`")
	flag.BoolVar(&o.createsOnly, "creates-only", false, "run only the create phase (and pgbench), e.g. to profile creates alone")
	logErrors := flag.Bool("log-errors", false, "print the server's error log lines to stderr (by default the server's log is discarded)")
	normal := flag.Bool("sqlite-normal", false, "also measure SQLite with synchronous=NORMAL (no sync at commit), to show what FULL costs")
	pg := flag.String("postgres", os.Getenv("EXPORTTASK_TEST_POSTGRES_DSN"), "PostgreSQL DSN to measure too (default $EXPORTTASK_TEST_POSTGRES_DSN)")
	flag.Parse()
	if !*sqliteToo && *pg == "" {
		return errors.New("-sqlite=false needs -postgres: nothing to measure")
	}
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
	if *logErrors {
		o.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	}

	dir, err := os.MkdirTemp("", "exporttask-load-")
	if err != nil {
		return fmt.Errorf("creating a temporary directory: %w", err)
	}
	defer os.RemoveAll(dir)
	var targets []string
	if *sqliteToo {
		targets = append(targets, dir+"/load.db")
		if *normal {
			targets = append(targets, "file:"+dir+"/normal.db?_pragma=synchronous(NORMAL)")
		}
	}
	if *pg != "" {
		targets = append(targets, *pg)
	}
	fmt.Printf("load: %d clients of one customer, phases of at most %s or %d requests, %d export workers, quota %d, GOMAXPROCS=%d\n",
		o.concurrency, o.duration, o.count, o.workers, o.quota, gomaxprocs())
	for _, db := range targets {
		results, err := measure(ctx, db, o)
		if err != nil {
			return err
		}
		if db == *pg {
			if err := comparePgbench(ctx, db, o, results[0]); err != nil {
				return err
			}
		}
	}
	return nil
}

// comparePgbench runs pgbench on the server of dsn and prints its
// throughput next to the creates' and their ratio.
func comparePgbench(ctx context.Context, dsn string, o options, creates result) error {
	pb, err := runPgbench(ctx, dsn, o)
	if err != nil {
		return err
	}
	fmt.Printf("pgbench  insert %7d inserts  in %6.2fs  %8.0f/s  latency average %s (pgbench -c %d, one INSERT of a task document per transaction)\n",
		pb.transactions, o.duration.Seconds(), pb.tps, pb.latency, o.concurrency)
	fmt.Printf("postgres creates / pgbench inserts: %.2f (goal >= 0.5)\n", creates.rate()/pb.tps)
	return nil
}
