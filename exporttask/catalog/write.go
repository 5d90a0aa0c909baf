package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// WriteRecord adds rec to the catalog in root (created if missing): fill
// writes the record's data into a fresh temporary directory, the manifest
// is written beside it, and the directory is renamed to <root>/<id> in one
// step. On any error the temporary directory is removed and nothing is
// visible. rec.Location is ignored; a record with the same id already in
// the catalog is an error wrapping fs.ErrExist.
func WriteRecord(root string, rec Record, fill func(dir string) error) (err error) {
	canon, ok := recordid.Canonical(rec.ID)
	if !ok {
		return fmt.Errorf("catalog: record id %q is not a UUID", rec.ID)
	}
	rec.ID = canon
	if err := checkRecord(rec); err != nil {
		return fmt.Errorf("catalog: record %s: %w", canon, err)
	}
	final := filepath.Join(root, canon)
	if _, err := os.Stat(final); err == nil {
		return fmt.Errorf("catalog: record %s: %w", canon, fs.ErrExist)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	tmp, err := os.MkdirTemp(root, ".building-"+canon+"-")
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, os.RemoveAll(tmp))
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	if fill != nil {
		if err := fill(tmp); err != nil {
			return fmt.Errorf("catalog: record %s: writing its data: %w", canon, err)
		}
	}
	manifest, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("catalog: record %s: %w", canon, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, ManifestName), append(manifest, '\n'), 0o644); err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("catalog: record %s: %w", canon, err)
	}
	return nil
}

// writeManifest replaces the manifest in the record directory dir with
// rec's, in one step: a temporary file beside it is renamed over it.
func writeManifest(dir string, rec Record) (err error) {
	manifest, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("catalog: record %s: %w", rec.ID, err)
	}
	f, err := os.CreateTemp(dir, ".record-*.json")
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, os.Remove(f.Name()))
		}
	}()
	_, err = f.Write(append(manifest, '\n'))
	if err = errors.Join(err, f.Chmod(0o644), f.Close()); err != nil {
		return fmt.Errorf("catalog: record %s: %w", rec.ID, err)
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, ManifestName)); err != nil {
		return fmt.Errorf("catalog: record %s: %w", rec.ID, err)
	}
	return nil
}
