// Package exportserver runs the reference export task server as a program:
// configuration from flags and EXPORTTASK_* environment variables, the
// store chosen by the -db value, an http.Server with timeouts, and a
// graceful shutdown; and its catalog subcommand ([RunCatalog]: add, list
// and remove records of the catalog directory the server reads). [Main]
// is the whole program: exporttask/cmd/exportserver and the repository's
// examples/server are each a one-line main around it.
package exportserver
