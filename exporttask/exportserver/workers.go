package exportserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/artifact/filestore"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// background is the work that runs beside the HTTP server: the export
// workers with the expiry sweeper, and webhook delivery.
type background struct {
	runner    *worker.Runner
	deliverer *webhook.Deliverer
}

// newBackground builds the Runner and the Deliverer of the program on st,
// their store calls timed in srv's metrics; wake is the Wakeup of the
// server's creates, space the directories whose free space an export
// needs (see spaceDirs). Every option of each is set
// here: from cfg where a flag sets it, else to its package's default.
func newBackground(cfg Config, srv *server.Server, st taskstore.Store, wake *worker.Wakeup, exp export.Exporter,
	arts artifact.Store, space []string, secret []byte, logger *slog.Logger) (background, error) {
	runner, err := worker.NewRunner(worker.RunnerConfig{
		Store:        srv.TimeWorkerStore(st),
		Exporter:     exp,
		Artifacts:    arts,
		Workers:      worker.DefaultWorkers,
		SmallWorkers: worker.DefaultSmallWorkers,
		SmallTask:    worker.DefaultSmallTask,
		Wakeup:       wake,
		SpaceDirs:    space,
		// FreeSpace: the default, statfs(2).
		Lease:          worker.DefaultLease,
		PollInterval:   worker.DefaultPollInterval,
		MaxAttempts:    worker.DefaultMaxAttempts,
		RetryDelay:     worker.DefaultRetryDelay,
		Retention:      cfg.Retention,
		FinalRetention: cfg.FinalRetention,
		SweepInterval:  cfg.SweepInterval,
		Instance:       cfg.Instance,
		// ID: the default, the instance and a random suffix.
		Logger: logger,
	})
	if err != nil {
		return background{}, err
	}
	deliverer, err := webhook.NewDeliverer(webhook.DelivererConfig{
		Store:         srv.TimeDelivererStore(st),
		Secret:        secret,
		Allow:         cfg.WebhookAllow,
		RetryHorizon:  webhook.DefaultRetryHorizon,
		Timeout:       webhook.DefaultTimeout,
		BaseBackoff:   webhook.DefaultBaseBackoff,
		MaxBackoff:    webhook.DefaultMaxBackoff,
		Concurrency:   webhook.DefaultConcurrency,
		PerHost:       webhook.DefaultPerHost,
		Retention:     webhook.DefaultRetention,
		PruneInterval: webhook.DefaultPruneInterval,
		PollInterval:  webhook.DefaultPollInterval,
		// MaxAttempts: none, RetryHorizon bounds the retries; Lease:
		// the default, Timeout + 30s; UserAgent and HTTPClient: the
		// defaults, whose dialer enforces Allow.
		Logger: logger,
	})
	if err != nil {
		return background{}, err
	}
	return background{runner: runner, deliverer: deliverer}, nil
}

// run runs the Runner and the Deliverer until ctx is done, then waits for
// both to stop. When one fails, it stops the other and returns the error.
func (b background) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	run := func(i int, name string, f func(context.Context) error) {
		defer wg.Done()
		if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) {
			errs[i] = fmt.Errorf("%s: %w", name, err)
			cancel() // one part failing stops the other
		}
	}
	wg.Add(2)
	go run(0, "runner", b.runner.Run)
	go run(1, "webhook delivery", b.deliverer.Run)
	wg.Wait()
	return errors.Join(errs...)
}

// spaceDirs are the directories an export fills: the scratch directory
// (when the exporter has one) and the file artifact store's (an S3
// bucket has no free space to check).
func spaceDirs(scratch string, arts artifact.Store) []string {
	var dirs []string
	if scratch != "" {
		dirs = append(dirs, scratch)
	}
	if fs, ok := arts.(*filestore.Store); ok {
		dirs = append(dirs, fs.Dir())
	}
	return dirs
}
