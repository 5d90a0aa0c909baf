//go:build !unix

package filestore

// isNotDir reports whether err says that a path component is a file; other
// systems report that as fs.ErrNotExist, which notFound checks already.
func isNotDir(error) bool { return false }

// syncUnsupported reports whether err from syncing a directory means the
// system cannot; outside Unix a directory cannot be synced.
func syncUnsupported(error) bool { return true }

// isNoSpace reports whether err says that the file system is full; other
// systems' errors are not told apart.
func isNoSpace(error) bool { return false }
