package exporttasktest

import "github.com/openapi-viewer/viewer/exporttask/server"

// WithServerConfig lets f change the [server.Config] that [NewServer]
// builds from the other options, just before the server is made: for
// settings no other Option covers, such as the create rate limit.
func WithServerConfig(f func(*server.Config)) Option {
	return func(c *config) { c.tweaks = append(c.tweaks, f) }
}
