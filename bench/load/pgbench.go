package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// pgbenchResult is what a pgbench run measured.
type pgbenchResult struct {
	transactions int
	tps          float64
	latency      string // pgbench's average latency, e.g. "4.512 ms"
}

// runPgbench measures, on the PostgreSQL server of dsn, what the server
// itself sustains for a row like a create's: o.concurrency pgbench clients
// for o.duration, each transaction one INSERT of a task's JSON document
// into a tasks table of the store's own schema (made by postgres.Open in
// a fresh schema, dropped afterwards), committed on its own.
func runPgbench(ctx context.Context, dsn string, o options) (pgbenchResult, error) {
	bin, err := findPgbench(o.pgbench)
	if err != nil {
		return pgbenchResult{}, err
	}
	schemaDSN, drop, err := pgSchema(ctx, dsn)
	if err != nil {
		return pgbenchResult{}, err
	}
	defer func() { _ = drop() }()
	doc, err := taskDoc(ctx, schemaDSN)
	if err != nil {
		return pgbenchResult{}, err
	}
	dir, err := os.MkdirTemp("", "load-pgbench-")
	if err != nil {
		return pgbenchResult{}, fmt.Errorf("creating the pgbench directory: %w", err)
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "insert.sql")
	// One statement, one line: a random dedup key (as distinct as the
	// load's creates), the estimated size, and the document.
	sql := "\\set rowkey random(1, 1000000000000000)\n" +
		"INSERT INTO tasks (customer, status, dedup_key, estimated_size, doc) VALUES " +
		"('pgbench', 'PENDING', md5(:rowkey::text), 1048576, '" + strings.ReplaceAll(doc, "'", "''") + "');\n"
	if err := os.WriteFile(script, []byte(sql), 0o600); err != nil {
		return pgbenchResult{}, fmt.Errorf("writing the pgbench script: %w", err)
	}
	conninfo, schema, err := libpqDSN(schemaDSN)
	if err != nil {
		return pgbenchResult{}, err
	}
	cmd := exec.CommandContext(ctx, bin, "-n", "-M", "prepared",
		"-c", strconv.Itoa(o.concurrency), "-j", strconv.Itoa(min(o.concurrency, gomaxprocs())),
		"-T", strconv.Itoa(max(1, int(o.duration.Round(time.Second).Seconds()))),
		"-f", script, conninfo)
	cmd.Env = append(os.Environ(), "PGOPTIONS=-c search_path="+schema)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return pgbenchResult{}, fmt.Errorf("running %s: %w: %s", bin, err, strings.TrimSpace(stderr.String()))
	}
	return parsePgbench(string(out))
}

// findPgbench returns the pgbench program to run: path when set, else
// pgbench on $PATH, else the newest under /usr/lib/postgresql/*/bin (where
// Debian installs it).
func findPgbench(path string) (string, error) {
	if path != "" {
		return path, nil
	}
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench")
	if len(found) == 0 {
		return "", errors.New("pgbench not found on $PATH nor under /usr/lib/postgresql/*/bin: install postgresql or pass -pgbench")
	}
	slices.SortFunc(found, func(a, b string) int { return pgMajor(a) - pgMajor(b) })
	return found[len(found)-1], nil
}

// pgMajor is the major version in a /usr/lib/postgresql/N/bin path.
func pgMajor(path string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return n
}

// taskDoc creates one task like the load's creates in the store on dsn
// and returns its stored JSON document.
func taskDoc(ctx context.Context, dsn string) (string, error) {
	db, err := postgres.Open(ctx, dsn)
	if err != nil {
		return "", fmt.Errorf("opening PostgreSQL for pgbench: %w", err)
	}
	defer db.Close()
	r := createRequest(newRunID(), 0)
	id, err := taskstore.Identify(r, "")
	if err != nil {
		return "", err
	}
	t, _, err := db.Create(ctx, taskstore.CreateParams{Customer: "pgbench", Request: r, Identity: id,
		EstimatedSize: 1 << 20, EstimatedTime: 30, Now: time.Now()})
	if err != nil {
		return "", fmt.Errorf("creating the pgbench task: %w", err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return "", fmt.Errorf("connecting to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	var doc string
	if err := conn.QueryRow(ctx, `SELECT doc::text FROM tasks WHERE id = $1`, t.ID).Scan(&doc); err != nil {
		return "", fmt.Errorf("reading the pgbench task: %w", err)
	}
	return doc, nil
}

// libpqDSN splits dsn (a URL with a search_path parameter, as pgSchema
// makes) into a URL libpq accepts and the schema.
func libpqDSN(dsn string) (conninfo, schema string, err error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return "", "", errors.New("reading the PostgreSQL DSN for pgbench: not valid")
	}
	schema = cfg.RuntimeParams["search_path"]
	quote := func(v string) string {
		return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(v) + "'"
	}
	u := fmt.Sprintf("host=%s port=%d dbname=%s user=%s",
		quote(cfg.Host), cfg.Port, quote(cfg.Database), quote(cfg.User))
	if cfg.TLSConfig == nil {
		u += " sslmode=disable"
	}
	if cfg.Password != "" {
		u += " password=" + quote(cfg.Password)
	}
	return u, schema, nil
}

var (
	pgbenchTPS     = regexp.MustCompile(`(?m)^tps = ([0-9.]+)`)
	pgbenchTxs     = regexp.MustCompile(`(?m)^number of transactions actually processed: ([0-9]+)`)
	pgbenchLatency = regexp.MustCompile(`(?m)^latency average = (.+)$`)
)

// parsePgbench reads pgbench's summary.
func parsePgbench(out string) (pgbenchResult, error) {
	tps, txs, lat := pgbenchTPS.FindStringSubmatch(out), pgbenchTxs.FindStringSubmatch(out), pgbenchLatency.FindStringSubmatch(out)
	if tps == nil || txs == nil || lat == nil {
		return pgbenchResult{}, fmt.Errorf("pgbench printed no tps, transaction count or latency:\n%s", out)
	}
	var r pgbenchResult
	r.tps, _ = strconv.ParseFloat(tps[1], 64)
	r.transactions, _ = strconv.Atoi(txs[1])
	r.latency = strings.TrimSpace(lat[1])
	return r, nil
}
