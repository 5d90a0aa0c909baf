package exporttasktest

import (
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// WithServerConfig lets f change the [server.Config] that [NewServer]
// builds from the other options, just before the server is made: for
// settings of the HTTP API no other Option covers, such as the create rate
// limit.
func WithServerConfig(f func(*server.Config)) Option {
	return func(c *config) { c.tweaks = append(c.tweaks, f) }
}

// WithRunnerConfig lets f change the [worker.RunnerConfig] that
// [NewServer] builds from the other options, just before the runner is
// made: for settings of the export workers and the sweeper no other
// Option covers, such as MaxAttempts, RetryDelay or FinalRetention.
func WithRunnerConfig(f func(*worker.RunnerConfig)) Option {
	return func(c *config) { c.runnerTweaks = append(c.runnerTweaks, f) }
}

// WithDelivererConfig lets f change the [webhook.DelivererConfig] that
// [NewServer] builds from the other options, just before the deliverer is
// made: for settings of webhook delivery no other Option covers, such as
// Timeout, Concurrency or PerHost.
func WithDelivererConfig(f func(*webhook.DelivererConfig)) Option {
	return func(c *config) { c.delivererTweaks = append(c.delivererTweaks, f) }
}
