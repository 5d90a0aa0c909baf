package server

import (
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// newWorkers builds the runner (export workers and expiry sweeper) and the
// webhook deliverer that [Server.Run] runs.
func (s *Server) newWorkers(cfg Config) {
	s.runner = worker.NewRunner(worker.RunnerConfig{
		Store:          cfg.Store,
		Exporter:       cfg.Exporter,
		Artifacts:      cfg.Artifacts,
		Workers:        cfg.Workers,
		Lease:          cfg.Lease,
		Instance:       cfg.Instance,
		PollInterval:   cfg.PollInterval,
		Retention:      cfg.Retention,
		FinalRetention: cfg.FinalRetention,
		SweepInterval:  cfg.SweepInterval,
		MaxAttempts:    cfg.MaxAttempts,
		RetryDelay:     cfg.RetryDelay,
		Logger:         cfg.Logger,
	})
	s.deliverer = webhook.NewDeliverer(webhook.DelivererConfig{
		Store:        cfg.Store,
		Secret:       cfg.WebhookSecret,
		Allow:        cfg.WebhookAllow,
		BaseBackoff:  cfg.WebhookBackoff,
		PollInterval: cfg.PollInterval,
		Logger:       cfg.Logger,
	})
}
