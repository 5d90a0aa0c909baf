package sqlite

import (
	"errors"
	"syscall"

	"modernc.org/sqlite"

	"github.com/openapi-viewer/viewer/exporttask"
)

// sqliteFull is SQLite's result code SQLITE_FULL: a write found the disk
// full.
const sqliteFull = 13

// MinFreeBytes is the free space below which [DB.Ping] reports a file
// database unable to write: twice the largest create body (its task
// document goes to the write-ahead log, then into the database file at the
// next checkpoint). Writes still succeed for a while below it, into space
// the log already holds; Ping looks ahead so that a readiness check fails
// before creates do.
const MinFreeBytes = 2 * exporttask.MaxBodyBytes

// diskFull marks err with [exporttask.ErrStorageFull] when it comes from a
// full disk (SQLITE_FULL, or ENOSPC from the file system).
func diskFull(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqliteFull || errors.Is(err, syscall.ENOSPC) {
		return exporttask.StorageFull(err)
	}
	return err
}
