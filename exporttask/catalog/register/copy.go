package register

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/internal/sourcefs"
)

// copySource copies the source from to to (see copyTree) and, with wal,
// the write-ahead log of the GeoPackage from beside it: the tiles written
// to a GeoPackage since its last checkpoint are in its log, and a copy
// without it would be the GeoPackage as it was before them.
func copySource(ctx context.Context, from, to string, wal bool) error {
	if err := copyTree(ctx, from, to); err != nil {
		return err
	}
	if !wal {
		return nil
	}
	return copyTree(ctx, from+catalog.WALSuffix, to+catalog.WALSuffix)
}

// copyTree copies the file or directory from to the path to, which must
// not exist, keeping permission bits and modification times: the record's
// Source keeps the size and modification time of the original, and the
// exporters compare them with the copy. Files are read as the exporters
// read them (see sourcefs): a symbolic link to a file inside from is
// copied as the file; a link leading out of from, a link to a directory,
// or any other special file (FIFO, device, socket) is an error, so the
// copy holds nothing from outside the source.
func copyTree(ctx context.Context, from, to string) error {
	st, err := os.Stat(from)
	if err != nil {
		return fmt.Errorf("register: copying %s: %w", from, err)
	}
	if !st.IsDir() {
		in, info, err := sourcefs.OpenFile(from)
		if err != nil {
			return fmt.Errorf("register: copying %s: %w", from, err)
		}
		defer in.Close()
		return copyFile(in, from, to, info)
	}
	root, err := sourcefs.OpenRoot(from)
	if err != nil {
		return fmt.Errorf("register: copying %s: %w", from, err)
	}
	defer root.Close()
	type dirTime struct {
		path string
		mod  time.Time
	}
	var dirs []dirTime
	err = filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			if err := os.Mkdir(dst, info.Mode().Perm()|0o700); err != nil {
				return err
			}
			dirs = append(dirs, dirTime{dst, info.ModTime()})
			return nil
		}
		name := filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			if target, err := root.Stat(name); err == nil && target.IsDir() {
				return fmt.Errorf("%s is a symbolic link to a directory; only files and directories are copied", path)
			}
		}
		in, info, err := root.Open(name)
		if err != nil {
			return fmt.Errorf("only regular files inside the source are copied: %w", err)
		}
		defer in.Close()
		return copyFile(in, path, dst, info)
	})
	if err != nil {
		return fmt.Errorf("register: copying %s: %w", from, err)
	}
	// Last, as writing into a directory changes its modification time.
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := os.Chtimes(dirs[i].path, time.Time{}, dirs[i].mod); err != nil {
			return fmt.Errorf("register: copying %s: %w", from, err)
		}
	}
	return nil
}

// copyFile copies the open regular file in (named from, whose FileInfo
// is st) to the new file to, with st's permission bits and modification
// time: st.Size() bytes, so a file growing meanwhile is not followed.
func copyFile(in io.Reader, from, to string, st fs.FileInfo) (err error) {
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm()|0o600)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	if _, err := io.CopyN(out, in, st.Size()); err != nil {
		out.Close()
		return fmt.Errorf("register: copying %s: %w", from, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("register: copying %s: %w", from, err)
	}
	if err := os.Chtimes(to, time.Time{}, st.ModTime()); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	return nil
}
