package exportserver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/netip"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/server"
)

// Config is the program's configuration. Each field has a flag and an
// environment variable; a flag given on the command line wins over the
// variable, which wins over the default.
type Config struct {
	// Addr is the listen address (-addr, EXPORTTASK_ADDR). Default ":8080".
	Addr string
	// DB is the store (-db, EXPORTTASK_DB): a SQLite file name, ":memory:",
	// or a postgres:// URL. Default "exporttask.db".
	DB string
	// Keys are the API keys (-keys, EXPORTTASK_KEYS), in the syntax of
	// [server.ParseKeys]. Default: one generated development key,
	// printed at start.
	Keys []server.APIKey
	// Quota is each customer's storage quota in bytes (-quota,
	// EXPORTTASK_QUOTA). Default 0: unlimited.
	Quota int64
	// CreateRate is how many tasks each customer may create per second
	// (-create-rate, EXPORTTASK_CREATE_RATE); over it a create is answered
	// 429. Default 0: no limit. See [server.Config.CreateRate].
	CreateRate float64
	// CreateBurst is how many creates a customer may send at once
	// (-create-burst, EXPORTTASK_CREATE_BURST). Default
	// [server.DefaultCreateBurst].
	CreateBurst int
	// TaskDuration is how long a simulated export takes (-task-duration,
	// EXPORTTASK_TASK_DURATION). Default 30s.
	TaskDuration time.Duration
	// Retention is how long completed tasks keep their artifacts
	// (-retention, EXPORTTASK_RETENTION). Default 720h (30 days).
	Retention time.Duration
	// WebhookSecret signs webhooks (-webhook-secret,
	// EXPORTTASK_WEBHOOK_SECRET). Default: generated at start and printed.
	WebhookSecret string
	// WebhookAllow are networks webhooks may reach although private or
	// loopback (-webhook-allow, EXPORTTASK_WEBHOOK_ALLOW: comma-separated
	// CIDRs, e.g. 127.0.0.0/8). Default none.
	WebhookAllow []netip.Prefix
}

// envPrefix starts the name of every environment variable.
const envPrefix = "EXPORTTASK_"

// ParseConfig reads the configuration from the command-line arguments (not
// including the program name) and the environment, through getenv. Usage
// and flag errors are written to output.
func ParseConfig(args []string, getenv func(string) string, output io.Writer) (Config, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(output)
	var (
		addr     = fs.String("addr", ":8080", "listen `address`")
		db       = fs.String("db", "exporttask.db", "SQLite `FILE`, :memory:, or a postgres:// URL")
		keys     = fs.String("keys", "", "API keys: `key=customer[:read+write],...` (default: a generated development key)")
		quota    = fs.Int64("quota", 0, "storage quota per customer, in `bytes` (0: unlimited)")
		rate     = fs.Float64("create-rate", 0, "creates per second each customer may make (0: no limit)")
		burst    = fs.Int("create-burst", server.DefaultCreateBurst, "creates a customer may send at once, with -create-rate")
		duration = fs.Duration("task-duration", 30*time.Second, "simulated export `duration`")
		retain   = fs.Duration("retention", exporttask.DefaultRetention, "how long completed tasks keep their artifacts")
		secret   = fs.String("webhook-secret", "", "HMAC `secret` that signs webhooks (default: generated and printed)")
		allow    = fs.String("webhook-allow", "", "`CIDRs` webhooks may reach although private or loopback, e.g. 127.0.0.0/8")
	)
	fs.VisitAll(func(f *flag.Flag) {
		f.Usage += " [$" + envName(f.Name) + "]"
	})
	// Environment variables set the defaults; flags override them.
	var envErrs []error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envName(f.Name)); v != "" {
			if err := f.Value.Set(v); err != nil {
				envErrs = append(envErrs, fmt.Errorf("%s: %w", envName(f.Name), err))
			}
		}
	})
	if err := errors.Join(envErrs...); err != nil {
		return Config{}, err
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	cfg := Config{Addr: *addr, DB: *db, Quota: *quota, CreateRate: *rate, CreateBurst: *burst,
		TaskDuration: *duration, Retention: *retain, WebhookSecret: *secret}
	var err error
	if cfg.Keys, err = server.ParseKeys(*keys); err != nil {
		return Config{}, fmt.Errorf("-keys: %w", err)
	}
	if cfg.WebhookAllow, err = parsePrefixes(*allow); err != nil {
		return Config{}, fmt.Errorf("-webhook-allow: %w", err)
	}
	switch {
	case cfg.Quota < 0:
		return Config{}, fmt.Errorf("-quota must not be negative, got %d", cfg.Quota)
	case !(cfg.CreateRate >= 0) || math.IsInf(cfg.CreateRate, 1):
		return Config{}, fmt.Errorf("-create-rate must be a finite number from 0 up, got %v", cfg.CreateRate)
	case cfg.CreateBurst < 1:
		return Config{}, fmt.Errorf("-create-burst must be at least 1, got %d", cfg.CreateBurst)
	case cfg.TaskDuration <= 0:
		return Config{}, fmt.Errorf("-task-duration must be positive, got %s", cfg.TaskDuration)
	case cfg.Retention <= 0:
		return Config{}, fmt.Errorf("-retention must be positive, got %s", cfg.Retention)
	case cfg.DB == "":
		return Config{}, errors.New("-db must not be empty")
	}
	return cfg, nil
}

// envName is the environment variable of a flag: -task-duration is
// EXPORTTASK_TASK_DURATION.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			// A single address stands for itself.
			a, aerr := netip.ParseAddr(item)
			if aerr != nil {
				return nil, fmt.Errorf("%q is not a CIDR or an IP address: %w", item, err)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
