package exportserver

import (
	"log/slog"
	"net/http"
	"time"
)

// The http.Server's timeouts. Reads are bounded so that slow clients cannot
// hold connections; the create body is at most exporttask.MaxBodyBytes.
// Writes are bounded by Config.WriteTimeout, except a download's body,
// which the server extends while it flows (server.Config.DownloadIdleTimeout).
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	// defaultWriteTimeout is the default of Config.WriteTimeout.
	defaultWriteTimeout = 30 * time.Second
	// shutdownTimeout bounds how long in-flight requests may take to
	// finish after a shutdown signal.
	shutdownTimeout = 20 * time.Second
)

// NewHTTPServer returns an http.Server for h with read-header, read and
// idle timeouts, the write timeout writeTimeout (a download's handler
// extends it while the client reads), logging its own errors to logger.
func NewHTTPServer(h http.Handler, writeTimeout time.Duration, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}
