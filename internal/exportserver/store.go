package exportserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/postgres"
	"github.com/openapi-viewer/viewer/exporttask/sqlite"
)

// OpenStore opens the store a -db value names: PostgreSQL for a
// postgres:// or postgresql:// URL, else SQLite (a file name, or :memory:).
func OpenStore(ctx context.Context, db string) (exporttask.Store, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		st, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, fmt.Errorf("opening the PostgreSQL store: %w", err)
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("opening the SQLite store %s: %w", db, err)
	}
	return st, nil
}
