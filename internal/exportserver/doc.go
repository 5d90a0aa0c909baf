// Package exportserver runs the reference export task server as a program:
// configuration from flags and EXPORTTASK_* environment variables, the
// store chosen by the -db value, an http.Server with timeouts, and a
// graceful shutdown; and its catalog subcommand ([RunCatalog]: add, list
// and remove records of the catalog directory the server reads).
// examples/server is a thin main around both.
package exportserver
