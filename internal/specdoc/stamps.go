package specdoc

import (
	"io/fs"
	"os"
	"strings"
	"time"
)

// Stamps holds, by file name, what a watcher compares to tell whether the
// files a document was read from have changed.
type Stamps map[string]FileStamp

// FileStamp is what a poll compares: a file counts as changed when its size
// or modification time does, or when it appears or disappears.
type FileStamp struct {
	size    int64
	modTime time.Time
	missing bool
}

// Stamp returns the stamps of files now, read from fsys when it is not
// nil, else from the OS.
func Stamp(fsys fs.FS, files []string) Stamps {
	out := make(Stamps, len(files))
	for _, name := range files {
		var (
			fi  fs.FileInfo
			err error
		)
		if fsys != nil {
			fi, err = fs.Stat(fsys, strings.TrimLeft(name, "/"))
		} else {
			fi, err = os.Stat(name)
		}
		if err != nil {
			out[name] = FileStamp{missing: true}
			continue
		}
		out[name] = FileStamp{size: fi.Size(), modTime: fi.ModTime()}
	}
	return out
}

// Files returns the names stamps holds.
func (s Stamps) Files() []string {
	names := make([]string, 0, len(s))
	for name := range s {
		names = append(names, name)
	}
	return names
}

// Same reports whether s and other hold the same files with the same
// stamps.
func (s Stamps) Same(other Stamps) bool {
	if len(s) != len(other) {
		return false
	}
	for name, a := range s {
		b, ok := other[name]
		if !ok || a.size != b.size || a.missing != b.missing || !a.modTime.Equal(b.modTime) {
			return false
		}
	}
	return true
}
