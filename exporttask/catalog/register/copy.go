package register

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// copyTree copies the file or directory from to the path to, which must
// not exist, keeping permission bits and modification times: the record's
// Source keeps the size and modification time of the original, and the
// exporters compare them with the copy. A symbolic link to a file is
// copied as the file; one to a directory, or any other special file, is
// an error.
func copyTree(ctx context.Context, from, to string) error {
	st, err := os.Stat(from)
	if err != nil {
		return fmt.Errorf("register: copying %s: %w", from, err)
	}
	if !st.IsDir() {
		return copyFile(from, to, st)
	}
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
		info, err := os.Stat(path) // follows a link
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(dst, info.Mode().Perm()|0o700); err != nil {
				return err
			}
			dirs = append(dirs, dirTime{dst, info.ModTime()})
			return nil
		case info.Mode().IsRegular():
			return copyFile(path, dst, info)
		default:
			return fmt.Errorf("%s is a %s; only files and directories are copied", path, kindOf(d, info))
		}
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

// kindOf names what a special directory entry is.
func kindOf(d fs.DirEntry, info fs.FileInfo) string {
	if d.Type()&fs.ModeSymlink != 0 && info.IsDir() {
		return "symbolic link to a directory"
	}
	return "special file (" + info.Mode().Type().String() + ")"
}

// copyFile copies the regular file from (whose FileInfo is st) to the new
// file to, with st's permission bits and modification time.
func copyFile(from, to string, st fs.FileInfo) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm()|0o600)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
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
