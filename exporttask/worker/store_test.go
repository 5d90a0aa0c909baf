package worker_test

import (
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/worker"
)

// Both stores of this module have the methods a Runner calls.
var (
	_ worker.Store = (*sqlite.DB)(nil)
	_ worker.Store = (*postgres.DB)(nil)
)
