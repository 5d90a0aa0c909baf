package exporttask

import "fmt"

// newWorkers builds the runner (export workers and expiry sweeper) and the
// webhook deliverer that [Server.Run] runs.
func (s *Server) newWorkers(cfg ServerConfig) error {
	runner, err := NewRunner(RunnerConfig{
		Store:     cfg.Store,
		Exporter:  cfg.Exporter,
		Workers:   cfg.Workers,
		Retention: cfg.Retention,
		Logger:    cfg.Logger,
	})
	if err != nil {
		return fmt.Errorf("exporttask: configuring the runner: %w", err)
	}
	deliverer, err := NewDeliverer(DelivererConfig{
		Store:  cfg.Store,
		Secret: cfg.WebhookSecret,
		Allow:  cfg.WebhookAllow,
		Logger: cfg.Logger,
	})
	if err != nil {
		return fmt.Errorf("exporttask: configuring webhook delivery: %w", err)
	}
	s.runner, s.deliverer = runner, deliverer
	return nil
}
