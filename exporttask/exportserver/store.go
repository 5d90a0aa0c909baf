package exportserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// OpenStore opens the store a -db value names: PostgreSQL for a
// postgres:// or postgresql:// URL, else SQLite (a file name, or :memory:).
// maxRunning is the most tasks of one customer running at once (0: no
// limit).
func OpenStore(ctx context.Context, db string, maxRunning int) (taskstore.Store, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		st, err := postgres.Open(ctx, db, postgres.WithMaxRunningPerCustomer(maxRunning))
		if err != nil {
			return nil, fmt.Errorf("opening the PostgreSQL store: %w", err)
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, db, sqlite.WithMaxRunningPerCustomer(maxRunning))
	if err != nil {
		return nil, fmt.Errorf("opening the SQLite store %s: %w", db, err)
	}
	return st, nil
}
