package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"syscall"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// spaceMargin is how much more than a task's estimated size must be free
// on each of RunnerConfig.SpaceDirs before its export starts: the size
// estimates are meant to be within 10%.
const spaceMargin = 1.10

// diskFullReason is the errorReason of a task that met a full disk.
const diskFullReason = "the disk is full: the export's files do not fit in the free space of the export service; " +
	"create the export again once space is freed"

// statfsFree returns the bytes free to an unprivileged user on the file
// system of dir.
func statfsFree(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// space tracks the estimated sizes of the exports running in this Runner,
// so that the free-space check of one export counts what the others are
// about to write.
type space struct {
	mu       sync.Mutex
	reserved int64
}

// reserve checks that need bytes (plus spaceMargin) fit on the file
// system of every dir, after what the running exports reserved, and
// reserves them. It returns a release func, or an error saying what does
// not fit (a *PermanentError with diskFullReason-like text) or that a
// statfs failed (then the check is skipped, logged by the caller).
func (r *Runner) reserveSpace(t exporttask.Task) (release func(), short error, err error) {
	need := int64(float64(max(t.EstimatedSize, 0)) * spaceMargin)
	r.space.mu.Lock()
	defer r.space.mu.Unlock()
	for _, dir := range r.spaceDirs {
		free, ferr := r.freeSpace(dir)
		if ferr != nil {
			err = errors.Join(err, fmt.Errorf("worker: free space of %s: %w", dir, ferr))
			continue
		}
		if avail := int64(min(free, uint64(1)<<62)) - r.space.reserved; need > avail {
			short = export.Permanent(fmt.Sprintf("the disk is full: this export needs about %s and only %s are free "+
				"for it in the export service; create the export again once space is freed", bytesText(need), bytesText(max(avail, 0))),
				exporttask.StorageFull(fmt.Errorf("worker: task %d needs %d bytes, %d free in %s", t.ID, need, avail, dir)))
			return nil, short, err
		}
	}
	r.space.reserved += need
	return func() {
		r.space.mu.Lock()
		r.space.reserved -= need
		r.space.mu.Unlock()
	}, nil, err
}

// bytesText writes n bytes in MB or GB, as a person reads them.
func bytesText(n int64) string {
	if n >= 1e9 {
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// checkSpace reserves the space of t's export before it starts. When it
// does not fit, the task is FAILED at once, without an attempt, and
// checkSpace returns ok false.
func (r *Runner) checkSpace(ctx context.Context, log *slog.Logger, t exporttask.Task, worker string) (release func(), ok bool) {
	if len(r.spaceDirs) == 0 {
		return func() {}, true
	}
	release, short, err := r.reserveSpace(t)
	if err != nil {
		log.WarnContext(ctx, "worker: checking the free space before an export", "error", err)
	}
	if short != nil {
		log.WarnContext(ctx, "worker: export refused: not enough free space", "error", short)
		r.finish(ctx, log, t, worker, taskstore.FinishParams{ErrorReason: errorReason(short)})
		return nil, false
	}
	return release, true
}

// diskFull reports whether err comes from a full disk: marked
// [exporttask.ErrStorageFull], ENOSPC from a file system, or SQLITE_FULL
// from an SQLite database being built (a GeoPackage).
func diskFull(err error) bool {
	if errors.Is(err, exporttask.ErrStorageFull) || errors.Is(err, syscall.ENOSPC) {
		return true
	}
	const sqliteFull = 13
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == sqliteFull
}
