package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// Remove deletes the record with the given id and everything in its
// directory: its manifest and a source copied into it. The directory is
// first renamed to a hidden name in the root, so that the record
// disappears in one step, and then removed. A source the record references
// outside its directory is never touched: symbolic links are removed, not
// followed. An unknown id, or one that is not a UUID, is an error wrapping
// [ErrNotFound].
func (c *Catalog) Remove(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	canon, ok := recordid.Canonical(id)
	if !ok {
		return fmt.Errorf("catalog: %q is not a UUID: %w", id, ErrNotFound)
	}
	dir := filepath.Join(c.root, canon)
	st, err := os.Lstat(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("catalog: record %s: %w", canon, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("catalog: record %s: %s is not a file", canon, filepath.Join(dir, ManifestName))
	}
	// The record moves into a fresh hidden directory of the root, in one
	// step, and is removed from there.
	tmp, err := os.MkdirTemp(c.root, ".removing-"+canon+"-")
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	if err := os.Rename(dir, filepath.Join(tmp, canon)); err != nil {
		return errors.Join(fmt.Errorf("catalog: record %s: %w", canon, err), os.Remove(tmp))
	}
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("catalog: record %s is removed from the catalog, but its files are left in %s: %w", canon, tmp, err)
	}
	return nil
}
