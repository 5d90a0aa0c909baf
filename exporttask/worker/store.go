package worker

import (
	"context"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// Store is the part of a [taskstore.Store] a [Runner] uses: the work
// queue, and the sweeps of tasks past their retention. Each method does
// what the method of the same name of taskstore.Store says. The stores of
// packages sqlite and postgres implement it, as every taskstore.Store
// does.
type Store interface {
	// Claim takes a task to run; see [taskstore.Store.Claim].
	Claim(ctx context.Context, worker string, now time.Time, lease time.Duration) (t exporttask.Task, ok bool, err error)
	// ClaimSmall takes a task estimated to take at most maxTime; see
	// [taskstore.Store.ClaimSmall].
	ClaimSmall(ctx context.Context, worker string, now time.Time, lease, maxTime time.Duration) (t exporttask.Task, ok bool, err error)
	// Progress records a leased task's progress and renews its lease; see
	// [taskstore.Store.Progress].
	Progress(ctx context.Context, id int64, worker string, progress int, now time.Time, lease time.Duration) (exporttask.Task, error)
	// ReleaseForRetry gives a leased task back, to be tried again after
	// a delay; see [taskstore.Store.ReleaseForRetry].
	ReleaseForRetry(ctx context.Context, id int64, worker string, now time.Time, delay time.Duration) (exporttask.Task, error)
	// Finish records a leased task's outcome; see [taskstore.Store.Finish].
	Finish(ctx context.Context, id int64, worker string, r taskstore.FinishParams, now time.Time) (exporttask.Task, error)
	// Expire moves COMPLETED tasks past their retention to EXPIRED; see
	// [taskstore.Store.Expire].
	Expire(ctx context.Context, now time.Time, limit int) (ids []int64, err error)
	// Purge removes final tasks past their final retention; see
	// [taskstore.Store.Purge].
	Purge(ctx context.Context, before time.Time, limit int) (ids []int64, err error)
	// ReleaseLeases ends the leases of an earlier run of an instance; see
	// [taskstore.Store.ReleaseLeases].
	ReleaseLeases(ctx context.Context, prefix string) (int, error)
}

// Every taskstore.Store is a Store.
var _ Store = taskstore.Store(nil)
