package exporttask

// newWorkers builds the runner (export workers and expiry sweeper) and the
// webhook deliverer that [Server.Run] runs.
func (s *Server) newWorkers(cfg ServerConfig) {
	s.runner = NewRunner(RunnerConfig{
		Store:        cfg.Store,
		Exporter:     cfg.Exporter,
		Workers:      cfg.Workers,
		Lease:        cfg.Lease,
		PollInterval: cfg.PollInterval,
		Retention:    cfg.Retention,
		Logger:       cfg.Logger,
	})
	s.deliverer = NewDeliverer(DelivererConfig{
		Store:        cfg.Store,
		Secret:       cfg.WebhookSecret,
		Allow:        cfg.WebhookAllow,
		BaseBackoff:  cfg.WebhookBackoff,
		PollInterval: cfg.PollInterval,
		Logger:       cfg.Logger,
	})
}
