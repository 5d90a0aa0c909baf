package sourcefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The problems this package reports; test them with errors.Is.
var (
	// ErrOutside is a name that leads outside the source: a symbolic link
	// (or a "..") whose target is not inside the root.
	ErrOutside = errors.New("leads outside the source")
	// ErrNotRegular is a file that is not a regular file: a FIFO, a device,
	// a socket or a directory where a file was expected.
	ErrNotRegular = errors.New("is not a regular file")
	// ErrTooLarge is a file larger than the limit its reader allows.
	ErrTooLarge = errors.New("is larger than allowed")
)

// Error is a problem with one file of a source. Its message is
// "NAME PROBLEM", NAME being the path inside the source.
type Error struct {
	// Name is the file's path inside the source, slash-separated.
	Name string
	// Err is one of the errors above, or the system's (then without the
	// path a *fs.PathError carries).
	Err error
	// Detail adds to Err's text, e.g. the sizes of ErrTooLarge.
	Detail string
}

func (e *Error) Error() string {
	msg := e.Name + " " + e.Err.Error()
	if errors.Is(e.Err, fs.ErrNotExist) {
		msg = e.Name + " does not exist"
	}
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Root is a source directory opened for reading inside it only.
type Root struct {
	root *os.Root
}

// OpenRoot opens the source directory dir.
func OpenRoot(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &Error{Name: filepath.Base(dir), Err: cause(err)}
	}
	return &Root{root: r}, nil
}

// Close releases the root. Files opened through it stay open.
func (r *Root) Close() error { return r.root.Close() }

// Open opens the regular file name (a slash path inside the root) for
// reading, and returns it with its FileInfo, taken from the open
// descriptor. A name leading outside the root is an error wrapping
// [ErrOutside]; anything but a regular file, one wrapping
// [ErrNotRegular]. A FIFO does not block the open.
func (r *Root) Open(name string) (*os.File, fs.FileInfo, error) {
	f, err := r.root.OpenFile(filepath.FromSlash(name), openFlags, 0)
	if err != nil {
		return nil, nil, &Error{Name: name, Err: cause(err)}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, &Error{Name: name, Err: cause(err)}
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Error{Name: name, Err: ErrNotRegular, Detail: kind(st.Mode())}
	}
	return f, st, nil
}

// ReadFile reads the regular file name (see [Root.Open]) whole. A file
// of more than limit bytes is an error wrapping [ErrTooLarge], found
// before reading; a file that grows past limit while it is read is one
// too.
func (r *Root) ReadFile(name string, limit int64) ([]byte, error) {
	f, st, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, name, st.Size(), limit)
}

// Stat returns the FileInfo of name inside the root, following symbolic
// links that stay inside it; a link that leaves it is an error wrapping
// [ErrOutside]. It does not open the file, so it never blocks on a FIFO;
// callers check the mode.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	st, err := r.root.Stat(filepath.FromSlash(name))
	if err != nil {
		return nil, &Error{Name: name, Err: cause(err)}
	}
	return st, nil
}

// StatFile is [Root.Stat] for a name that must be a regular file: a
// directory, FIFO, device or socket is an error wrapping [ErrNotRegular].
func (r *Root) StatFile(name string) (fs.FileInfo, error) {
	st, err := r.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Name: name, Err: ErrNotRegular, Detail: kind(st.Mode())}
	}
	return st, nil
}

// ReadDir lists the directory name inside the root ("." for the root
// itself), sorted by name. The entries are not followed: check a
// symbolic link's target with [Root.Stat].
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := r.root.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, &Error{Name: name, Err: cause(err)}
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, &Error{Name: name, Err: cause(err)}
	}
	sortEntries(entries)
	return entries, nil
}

// OpenFile opens a source that is one file, path, through its directory as
// the root (see [Root.Open]): a symbolic link at path is followed only
// within that directory. Errors name the file by its base name.
func OpenFile(path string) (*os.File, fs.FileInfo, error) {
	r, err := OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return r.Open(filepath.Base(path))
}

// readAll reads f, of size bytes by its fstat, up to limit bytes.
func readAll(f io.Reader, name string, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, &Error{Name: name, Err: ErrTooLarge, Detail: fmt.Sprintf("%d bytes, the limit is %d", size, limit)}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, &Error{Name: name, Err: cause(err)}
	}
	if int64(buf.Len()) > limit {
		return nil, &Error{Name: name, Err: ErrTooLarge, Detail: fmt.Sprintf("it grew past the limit of %d bytes while read", limit)}
	}
	return buf.Bytes(), nil
}

// sortEntries sorts directory entries by name, as os.ReadDir does.
func sortEntries(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// cause returns err without the path a *fs.PathError carries (it may be
// absolute), and os.Root's escape as ErrOutside.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	// os.Root reports an escape with an unexported error of this text.
	if strings.Contains(err.Error(), "path escapes from parent") {
		return ErrOutside
	}
	return err
}

// kind names a file mode's type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}
