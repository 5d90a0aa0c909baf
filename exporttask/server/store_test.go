package server_test

import (
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/server"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// Both stores of this module have the methods a Server calls.
var (
	_ server.Store = (*sqlite.DB)(nil)
	_ server.Store = (*postgres.DB)(nil)
)
