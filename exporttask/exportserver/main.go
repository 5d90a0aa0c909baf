package exportserver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// Main runs the program with the command-line arguments args (without the
// program name) and returns its exit status: "catalog ..." runs
// [RunCatalog]; anything else is parsed by [ParseConfig] (-h prints the
// flags and returns 0, a usage error returns 2) and served by [Run] until
// SIGINT or SIGTERM, logging JSON to stderr (1 when it stops with an
// error). getenv reads the EXPORTTASK_* variables. A main package is
// os.Exit(Main(os.Args[1:], os.Getenv, os.Stdout, os.Stderr)).
func Main(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) > 0 && args[0] == "catalog" {
		return RunCatalog(ctx, args[1:], getenv, stdout, stderr)
	}
	cfg, err := ParseConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "server:", err)
		return 2
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	if err := Run(ctx, cfg, stdout, logger); err != nil {
		logger.Error("server stopped", "error", err.Error())
		return 1
	}
	return 0
}
