package filestore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// List returns the committed files whose keys start with prefix, in key
// order. It walks only the directory that holds the prefix.
func (s *Store) List(ctx context.Context, prefix string) ([]artifact.Info, error) {
	if err := artifactkey.CheckPrefix(prefix); err != nil {
		return nil, fmt.Errorf("filestore: list: %w", err)
	}
	var infos []artifact.Info
	err := s.walk(ctx, prefix, func(key string, d fs.DirEntry) error {
		if isTemp(d.Name()) || !d.Type().IsRegular() {
			return nil
		}
		st, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted while listing
		}
		if err != nil {
			return err
		}
		infos = append(infos, artifact.Info{Key: key, Size: st.Size(), ModTime: st.ModTime()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("filestore: list %q: %w", prefix, err)
	}
	slices.SortFunc(infos, func(a, b artifact.Info) int { return strings.Compare(a.Key, b.Key) })
	return infos, nil
}

// DeletePrefix removes every file whose key starts with prefix, with the
// temporary files of writers under it (their Commit then fails). A prefix
// ending in a slash removes its directory.
func (s *Store) DeletePrefix(ctx context.Context, prefix string) error {
	if prefix == "" {
		return fmt.Errorf("filestore: delete: %w: the empty prefix would delete every file", artifact.ErrKey)
	}
	if err := artifactkey.CheckPrefix(prefix); err != nil {
		return fmt.Errorf("filestore: delete: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("filestore: delete %q: %w", prefix, err)
	}
	dir, start := path.Split(prefix)
	if start == "" { // "42/": the whole directory
		if err := os.RemoveAll(s.path(strings.TrimSuffix(dir, "/"))); err != nil {
			return fmt.Errorf("filestore: delete %q: %w", prefix, err)
		}
		return nil
	}
	parent := s.root
	if dir != "" {
		parent = s.path(strings.TrimSuffix(dir, "/"))
	}
	entries, err := os.ReadDir(parent)
	if notFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("filestore: delete %q: %w", prefix, err)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("filestore: delete %q: %w", prefix, err)
		}
		if !strings.HasPrefix(strings.TrimPrefix(e.Name(), "."), start) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(parent, e.Name())); err != nil {
			return fmt.Errorf("filestore: delete %q: %w", prefix, err)
		}
	}
	return nil
}

// RemoveStale deletes the temporary files that have not been written for
// olderThan (left by crashed writers; a live writer's file is written
// continually) and returns how many it removed.
func (s *Store) RemoveStale(ctx context.Context, olderThan time.Duration) (int, error) {
	cutoff := time.Now().Add(-olderThan)
	removed := 0
	err := s.walk(ctx, "", func(key string, d fs.DirEntry) error {
		if !isTemp(d.Name()) || !d.Type().IsRegular() {
			return nil
		}
		st, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.ModTime().After(cutoff) {
			return nil
		}
		if err := os.Remove(filepath.Join(s.root, filepath.FromSlash(key))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		removed++
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("filestore: remove stale files: %w", err)
	}
	return removed, nil
}

// walk calls fn for each non-directory under the directory of prefix whose
// key starts with prefix (temporary files: whose name without its leading
// dot does), skipping hidden directories.
func (s *Store) walk(ctx context.Context, prefix string, fn func(key string, d fs.DirEntry) error) error {
	dir, _ := path.Split(prefix)
	base := s.path(strings.TrimSuffix(dir, "/"))
	if dir == "" {
		base = s.root
	}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != base && errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(s.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			if p == base {
				return nil
			}
			if isTemp(d.Name()) || !strings.HasPrefix(prefix, key+"/") && !strings.HasPrefix(key, prefix) {
				return filepath.SkipDir
			}
			return nil
		}
		match := key
		if isTemp(d.Name()) {
			match = path.Join(path.Dir(key), d.Name()[1:])
		}
		if !strings.HasPrefix(match, prefix) {
			return nil
		}
		return fn(key, d)
	})
	if notFound(err) {
		return nil
	}
	return err
}
