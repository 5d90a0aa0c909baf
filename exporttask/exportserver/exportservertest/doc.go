// Package exportservertest runs the reference server (package
// exportserver, the code of examples/server) in the test's process, on
// loopback, for tests that need the whole program: the real exporter over
// the demo catalog, the docs, the command-line flags. Start with [Start].
package exportservertest
