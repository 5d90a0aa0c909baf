// Command server runs the reference export task service, with its
// documentation served by the viewer, from the repository's root:
//
//	go run ./examples/server
//
// It is the program exporttask/cmd/exportserver (the same code, package
// exportserver); that program's doc lists its flags, environment variables
// and catalog subcommand.
package main

import (
	"os"

	"github.com/openapi-viewer/viewer/exporttask/exportserver"
)

func main() {
	os.Exit(exportserver.Main(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
