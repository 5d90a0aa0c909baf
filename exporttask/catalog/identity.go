package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"
)

// WALSuffix is appended to a GeoPackage's path to name its SQLite
// write-ahead log.
const WALSuffix = "-wal"

// Version identifies the data the source held when it was registered:
// the hex SHA-256 of its path, format, table, size, content fingerprint
// ([Source.Content]) and, for a GPKG, the size and modification time of
// its write-ahead log. The modification time of the file itself does not
// count when the record has a content fingerprint: the same content
// touched, or restored from a backup, is the same version (and the same
// export, see export.Estimate.SourceVersion); a record registered
// before fingerprints counts it instead. Registering other data for a
// record (catalog add -replace) gives another Version, so a request for
// the same export of the record is a new export, not a replay of one
// made from the old data. Empty for a nil Source.
func (s *Source) Version() string {
	if s == nil {
		return ""
	}
	stamp := strconv.FormatInt(s.ModTime.UnixNano(), 10)
	if s.Content != "" {
		stamp = "sha256:" + s.Content
	}
	h := sha256.New()
	for _, f := range []string{s.Path, s.Format, s.Table,
		strconv.FormatInt(s.Size, 10), stamp,
		strconv.FormatInt(s.WALSize, 10), strconv.FormatInt(unixNano(s.WALModTime), 10)} {
		h.Write([]byte(strconv.Itoa(len(f))))
		h.Write([]byte{':'})
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// unixNano is t in Unix nanoseconds, 0 for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// StatWAL returns the size and modification time of the write-ahead log
// of the GeoPackage at path (path + [WALSuffix]); zero values when there
// is none, or an empty one (which holds no data: SQLite readers of a
// database in WAL mode create it). A log that is not a regular file is
// an error.
func StatWAL(path string) (int64, time.Time, error) {
	st, err := os.Lstat(path + WALSuffix)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, time.Time{}, nil
	case err != nil:
		return 0, time.Time{}, fmt.Errorf("catalog: reading the write-ahead log of %s: %w", path, err)
	case !st.Mode().IsRegular():
		return 0, time.Time{}, fmt.Errorf("catalog: the write-ahead log of %s is not a regular file", path)
	case st.Size() == 0:
		return 0, time.Time{}, nil
	}
	return st.Size(), st.ModTime(), nil
}

// WALChanged reports whether the write-ahead log of the GeoPackage at
// path differs from the one s recorded at registration (in size or
// modification time, or by appearing or going). A log that cannot be
// read counts as changed.
func (s *Source) WALChanged(path string) bool {
	size, mod, err := StatWAL(path)
	return err != nil || size != s.WALSize || !mod.Equal(s.WALModTime)
}
