package exportserver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// Config is the program's configuration. Each field has a flag and an
// environment variable; a flag given on the command line wins over the
// variable, which wins over the default.
type Config struct {
	// Addr is the listen address (-addr, EXPORTTASK_ADDR). Default
	// [DefaultAddr], loopback only: ":8080" listens on every interface.
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
	// Exporter chooses the exports (-exporter, EXPORTTASK_EXPORTER):
	// "real" exports the records of the catalog in Catalog; "simulate"
	// accepts any record id and writes small stand-in files after
	// TaskDuration. Default "real".
	Exporter string
	// Catalog is the catalog's directory (-catalog, EXPORTTASK_CATALOG),
	// where the demo records are written on first start. Default
	// "exporttask-catalog" in the working directory.
	Catalog string
	// Artifacts is where the exported files go (-artifacts,
	// EXPORTTASK_ARTIFACTS): a directory, or s3://bucket/prefix (endpoint,
	// region and credentials from the AWS_* environment variables).
	// Default: the directory "exporttask-artifacts" next to the SQLite
	// file, or in the working directory for :memory: and PostgreSQL.
	Artifacts string
	// Scratch is where exports build their files before they are stored
	// (-scratch, EXPORTTASK_SCRATCH): each export gets its own
	// directory under <Scratch>/<Instance>/, removed when it ends, and a
	// server removes everything under its own <Scratch>/<Instance>/ at
	// start, the leftovers of a crash. Keep it on a local disk with room
	// for the largest export in progress (a RASTER GeoPackage is built
	// whole there), also with S3 artifacts. Default: the directory
	// "exporttask-scratch" next to the SQLite file, or in the working
	// directory for :memory: and PostgreSQL.
	Scratch string
	// S3PathStyle forces path-style S3 addressing (-s3-path-style,
	// EXPORTTASK_S3_PATH_STYLE), as self-hosted S3 services need.
	S3PathStyle bool
	// RedirectDownloads answers downloads from S3 with a redirect to a
	// short-lived presigned URL instead of passing the bytes through
	// (-redirect-downloads, EXPORTTASK_REDIRECT_DOWNLOADS).
	RedirectDownloads bool
	// PublicURL is the base of the artifacts' download URLs (-public-url,
	// EXPORTTASK_PUBLIC_URL), e.g. https://exports.example.com. Default:
	// taken from each request's Host.
	PublicURL string
	// TrustForwarded takes the scheme and host of download URLs from
	// X-Forwarded-Proto and X-Forwarded-Host when PublicURL is empty
	// (-trust-forwarded, EXPORTTASK_TRUST_FORWARDED); only behind a proxy
	// that sets them.
	TrustForwarded bool
	// TaskDuration is how long a simulated export takes (-task-duration,
	// EXPORTTASK_TASK_DURATION), with -exporter simulate. Default 30s.
	TaskDuration time.Duration
	// Retention is how long completed tasks keep their artifacts
	// (-retention, EXPORTTASK_RETENTION). Default 720h (30 days).
	Retention time.Duration
	// FinalRetention is how long ABORTED, FAILED and EXPIRED tasks stay
	// stored before the sweeper removes them (-final-retention,
	// EXPORTTASK_FINAL_RETENTION). Default
	// [worker.DefaultFinalRetention] (168h, 7 days).
	FinalRetention time.Duration
	// SweepInterval is how often tasks whose retention is over are moved to
	// EXPIRED and their files deleted (-sweep-interval,
	// EXPORTTASK_SWEEP_INTERVAL). Default [worker.DefaultSweepInterval].
	SweepInterval time.Duration
	// WebhookSecret signs webhooks (-webhook-secret,
	// EXPORTTASK_WEBHOOK_SECRET). Default: generated at start and printed.
	WebhookSecret string
	// Instance is this process's stable name (-instance,
	// EXPORTTASK_INSTANCE): the same across restarts, different from every
	// other server sharing the database, without "/". A restarted server
	// resumes the tasks it was running at once; another server's wait for
	// their 30s lease. Default: the host name.
	Instance string
	// MaxRunning is the most tasks of one customer running at once, counted
	// over every server sharing the database (-max-running,
	// EXPORTTASK_MAX_RUNNING). Claims take turns among customers either
	// way, so a burst of one customer does not delay another's next task.
	// Default 0, no limit: a customer alone in the queue then uses every
	// worker instead of leaving some idle; set it when one customer's long
	// exports must not hold every worker while others wait.
	MaxRunning int
	// WriteTimeout bounds how long the server takes to write an answer
	// (-write-timeout, EXPORTTASK_WRITE_TIMEOUT), except a download's
	// body, which DownloadIdleTimeout bounds instead. Default 30s.
	WriteTimeout time.Duration
	// DownloadIdleTimeout is how long a download may go without the
	// client reading any of it before the server cuts it
	// (-download-idle-timeout, EXPORTTASK_DOWNLOAD_IDLE_TIMEOUT); a
	// download that keeps flowing is never cut, however long it takes.
	// Default [server.DefaultDownloadIdleTimeout] (30s).
	DownloadIdleTimeout time.Duration
	// ShutdownGrace is how long, after the shutdown signal, the server
	// waits for the exports in progress to stop (-shutdown-grace,
	// EXPORTTASK_SHUTDOWN_GRACE). Exports are cancelled at the signal and
	// normally stop at once; one stuck in a read that does not end is
	// left behind when the grace is over, and the process exits: its task
	// keeps its lease and is resumed at the next start (see
	// worker.RunnerConfig.Instance). Default [DefaultShutdownGrace] (30s).
	ShutdownGrace time.Duration
	// DEMMemory is the working memory of one DEM export (-dem-memory,
	// EXPORTTASK_DEM_MEMORY), see dem.Options.MemoryBudget. Default
	// [dem.DefaultMemoryBudget] (256 MiB); at least 16 MiB.
	DEMMemory int64
	// WebhookAllow are networks webhooks may reach although private or
	// loopback (-webhook-allow, EXPORTTASK_WEBHOOK_ALLOW: comma-separated
	// CIDRs, e.g. 127.0.0.0/8). Default: none, except that a server whose
	// Addr is loopback only (the default) lets webhooks reach 127.0.0.0/8
	// and ::1, where only this machine's clients could ask for them.
	WebhookAllow []netip.Prefix
}

// DefaultAddr is the default listen address (-addr): this machine only, so
// that a generated development key does not open the service to the
// network.
const DefaultAddr = "127.0.0.1:8080"

// envPrefix starts the name of every environment variable.
const envPrefix = "EXPORTTASK_"

// minDEMMemory is the smallest -dem-memory: below it a DEM export could
// hold little more than one row of tiles of a narrow window.
const minDEMMemory = 16 << 20

// DefaultCatalog is the default catalog directory (-catalog), relative to
// the working directory: the server and the catalog command use it alike.
const DefaultCatalog = "exporttask-catalog"

// ParseConfig reads the configuration from the command-line arguments (not
// including the program name) and the environment, through getenv. Usage
// and flag errors are written to output.
func ParseConfig(args []string, getenv func(string) string, output io.Writer) (Config, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(output)
	var (
		addr     = fs.String("addr", DefaultAddr, "listen `address` (:8080 listens on every interface)")
		db       = fs.String("db", "exporttask.db", "SQLite `FILE`, :memory:, or a postgres:// URL")
		keys     = fs.String("keys", "", "API keys: `key=customer[:read+write],...` (default: a generated development key)")
		quota    = fs.Int64("quota", 0, "storage quota per customer, in `bytes` (0: unlimited)")
		rate     = fs.Float64("create-rate", 0, "creates per second each customer may make (0: no limit)")
		burst    = fs.Int("create-burst", server.DefaultCreateBurst, "creates a customer may send at once, with -create-rate")
		exporter = fs.String("exporter", "real", "`real` (exports of the -catalog records) or simulate (stand-in files after -task-duration)")
		cat      = fs.String("catalog", DefaultCatalog, "catalog `DIR`; the demo records are written there on first start")
		arts     = fs.String("artifacts", "", "where exported files go: a `DIR` or s3://bucket/prefix (default: exporttask-artifacts next to the -db file)")
		scratch  = fs.String("scratch", "", "`DIR` where exports build their files (default: exporttask-scratch next to the -db file)")
		s3path   = fs.Bool("s3-path-style", false, "path-style S3 addressing (self-hosted S3 services)")
		redirect = fs.Bool("redirect-downloads", false, "redirect downloads from S3 to short-lived presigned URLs")
		public   = fs.String("public-url", "", "base `URL` of download links, e.g. https://exports.example.com (default: from each request)")
		trustFwd = fs.Bool("trust-forwarded", false, "build download URLs from X-Forwarded-Proto/-Host (only behind a proxy that sets them)")
		duration = fs.Duration("task-duration", 30*time.Second, "simulated export `duration` (-exporter simulate)")
		retain   = fs.Duration("retention", exporttask.DefaultRetention, "how long completed tasks keep their artifacts")
		final    = fs.Duration("final-retention", worker.DefaultFinalRetention, "how long ABORTED, FAILED and EXPIRED tasks stay stored before they are removed")
		sweep    = fs.Duration("sweep-interval", worker.DefaultSweepInterval, "how often expired tasks are moved to EXPIRED and their files deleted")
		secret   = fs.String("webhook-secret", "", "HMAC `secret` that signs webhooks (default: generated and printed)")
		instance = fs.String("instance", hostname(), "this server's stable `name` across restarts, unique among the servers sharing the database")
		running  = fs.Int("max-running", 0, "most tasks of one customer running at once, over all servers sharing the database (0: no limit)")
		writeTO  = fs.Duration("write-timeout", defaultWriteTimeout, "longest `duration` of writing an answer (a download's body excepted)")
		dlIdle   = fs.Duration("download-idle-timeout", server.DefaultDownloadIdleTimeout, "a download is cut after its client read nothing for this `duration`")
		grace    = fs.Duration("shutdown-grace", DefaultShutdownGrace, "after a shutdown signal, exports still running after this `duration` are left to be resumed at the next start")
		demMem   = fs.Int64("dem-memory", dem.DefaultMemoryBudget, "working memory of one DEM export, in `bytes`: buffers and overview rows beyond it go to scratch files")
		allow    = fs.String("webhook-allow", "", "`CIDRs` webhooks may reach although private or loopback, e.g. 127.0.0.0/8")
	)
	fs.VisitAll(func(f *flag.Flag) {
		f.Usage += " [$" + envName(f.Name) + "]"
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: server [flags]                       runs the export task service\n"+
			"       server catalog add|list|remove ...   manages the catalog's records (server catalog -h)\n\nflags:\n")
		fs.PrintDefaults()
	}
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
		TaskDuration: *duration, Retention: *retain, FinalRetention: *final, SweepInterval: *sweep, WebhookSecret: *secret, Exporter: *exporter, Catalog: *cat,
		Artifacts: *arts, Scratch: *scratch, S3PathStyle: *s3path, RedirectDownloads: *redirect, PublicURL: *public, TrustForwarded: *trustFwd,
		Instance: *instance, MaxRunning: *running, WriteTimeout: *writeTO, DownloadIdleTimeout: *dlIdle,
		ShutdownGrace: *grace, DEMMemory: *demMem}
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
	case cfg.FinalRetention <= 0:
		return Config{}, fmt.Errorf("-final-retention must be positive, got %s", cfg.FinalRetention)
	case cfg.MaxRunning < 0:
		return Config{}, fmt.Errorf("-max-running must not be negative, got %d", cfg.MaxRunning)
	case strings.Contains(cfg.Instance, "/"):
		return Config{}, fmt.Errorf("-instance must not contain '/', got %q", cfg.Instance)
	case cfg.SweepInterval <= 0:
		return Config{}, fmt.Errorf("-sweep-interval must be positive, got %s", cfg.SweepInterval)
	case cfg.WriteTimeout <= 0:
		return Config{}, fmt.Errorf("-write-timeout must be positive, got %s", cfg.WriteTimeout)
	case cfg.DownloadIdleTimeout <= 0:
		return Config{}, fmt.Errorf("-download-idle-timeout must be positive, got %s", cfg.DownloadIdleTimeout)
	case cfg.ShutdownGrace <= 0:
		return Config{}, fmt.Errorf("-shutdown-grace must be positive, got %s", cfg.ShutdownGrace)
	case cfg.DEMMemory < minDEMMemory:
		return Config{}, fmt.Errorf("-dem-memory must be at least %d bytes (16 MiB), got %d", minDEMMemory, cfg.DEMMemory)
	case cfg.DB == "":
		return Config{}, errors.New("-db must not be empty")
	case cfg.Exporter != "real" && cfg.Exporter != "simulate":
		return Config{}, fmt.Errorf("-exporter must be real or simulate, got %q", cfg.Exporter)
	case cfg.Catalog == "":
		return Config{}, errors.New("-catalog must not be empty")
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

// hostname is the default of -instance: the host name, or empty when it is
// unknown (then a restarted server waits for its old leases).
func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return strings.ReplaceAll(h, "/", "-")
}
