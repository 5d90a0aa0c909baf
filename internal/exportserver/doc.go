// Package exportserver runs the reference export task server as a program:
// configuration from flags and EXPORTTASK_* environment variables, the
// store chosen by the -db value, an http.Server with timeouts, and a
// graceful shutdown. examples/server is a thin main around it.
package exportserver
