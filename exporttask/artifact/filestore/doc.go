// Package filestore is an [artifact.Store] on a directory of the
// local filesystem: the file of key "42/export.gpkg" is DIR/42/export.gpkg.
//
// Start with [Open]. A writer streams into a hidden temporary file beside
// its target (".export.gpkg.<random>.tmp"), hashing as it goes; Commit
// flushes it to disk (fsync) and renames it into place, so a reader sees
// the old file or the whole new one, never part of one. A crash leaves only
// hidden temporary files, which List and Open never show and which
// [Store.RemoveStale] (called by Open for files idle for [StaleAfter])
// deletes. A writer's TakeFile ([artifact.FileTaker]) takes a finished
// file whole: it reads it once for its SHA-256 and renames it over the
// temporary file, so an export built on the same file system is stored
// without a copy (across file systems it is copied).
//
// The store does not keep a file's SHA-256 after Commit: Open and List
// leave [artifact.Info.SHA256] empty.
package filestore
