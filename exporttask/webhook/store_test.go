package webhook_test

import (
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/webhook"
)

// Both stores of this module have the methods a Deliverer calls.
var (
	_ webhook.Store = (*sqlite.DB)(nil)
	_ webhook.Store = (*postgres.DB)(nil)
)
