//go:build unix

package filestore

import (
	"errors"
	"syscall"
)

// isNotDir reports whether err says that a path component is a file.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// syncUnsupported reports whether err from syncing a directory means the
// filesystem cannot (some answer EINVAL); the rename then stands unsynced.
func syncUnsupported(err error) bool { return errors.Is(err, syscall.EINVAL) }

// isNoSpace reports whether err says that the file system is full.
func isNoSpace(err error) bool { return errors.Is(err, syscall.ENOSPC) }
