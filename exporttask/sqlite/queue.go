package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/storekit"
)

// Claimable reads the oldest claimable task of the customer whose turn it
// is, among those below maxRunning (and, when maxTime > 0, among the
// tasks estimated to take at most maxTime seconds), and moves that customer to the back of
// the round; see [storekit.Tx]. Writes run one at a time, so the limit
// holds without locks.
func (w wtx) Claimable(ctx context.Context, now int64, maxRunning int, maxTime int64) (exporttask.Task, bool, error) {
	t, err := storekit.ScanTask(w.c.queryRow(ctx, qClaimable, now, maxRunning, maxTime))
	if errors.Is(err, sql.ErrNoRows) {
		return exporttask.Task{}, false, nil
	}
	if err != nil {
		return exporttask.Task{}, false, err
	}
	if _, err := w.c.exec(ctx, qTakeTurn, t.ID); err != nil {
		return exporttask.Task{}, false, fmt.Errorf("taking the customer's turn: %w", err)
	}
	return t, true, nil
}
