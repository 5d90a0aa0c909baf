package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// ManifestName is the name of a record's manifest file in its directory.
const ManifestName = "record.json"

// Catalog reads records from a directory. It holds no cache: a record added
// with [WriteRecord] is found at once. It is safe for concurrent use.
type Catalog struct {
	root string
}

// Open returns the catalog in the directory root, which must exist.
func Open(root string) (*Catalog, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("catalog: %s is not a directory", abs)
	}
	return &Catalog{root: abs}, nil
}

// Root returns the catalog's directory, as an absolute path.
func (c *Catalog) Root() string { return c.root }

// Record returns the record with the given id, its Location set to the
// record's directory. An unknown id, or one that is not a UUID, is an error
// wrapping [ErrNotFound]; a manifest that cannot be read
// or is malformed is an error naming the file.
func (c *Catalog) Record(ctx context.Context, id string) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	canon, ok := recordid.Canonical(id)
	if !ok {
		return Record{}, fmt.Errorf("catalog: %q is not a UUID: %w", id, ErrNotFound)
	}
	dir := filepath.Join(c.root, canon)
	path := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, fmt.Errorf("catalog: record %s: %w", canon, ErrNotFound)
	}
	if err != nil {
		return Record{}, fmt.Errorf("catalog: %w", err)
	}
	rec, err := decodeManifest(b)
	if err != nil {
		return Record{}, fmt.Errorf("catalog: %s: %w", path, err)
	}
	if rec.ID != canon {
		return Record{}, fmt.Errorf("catalog: %s: id %q does not match the directory name %s", path, rec.ID, canon)
	}
	rec.Location = dir
	return rec, nil
}

// decodeManifest reads and checks a record.json.
func decodeManifest(b []byte) (Record, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, fmt.Errorf("malformed record: %w", err)
	}
	if err := checkRecord(rec); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// checkRecord reports what is wrong with a record, naming the field.
func checkRecord(rec Record) error {
	if canon, ok := recordid.Canonical(rec.ID); !ok || canon != rec.ID {
		return fmt.Errorf("id: %q is not a UUID in lower case", rec.ID)
	}
	if !rec.Domain.Valid() {
		return fmt.Errorf("domain: %q is not one of %v", rec.Domain, exporttask.Domains())
	}
	if rec.Footprint == nil || rec.Footprint.Polygons() == nil {
		return errors.New("footprint: a Polygon or MultiPolygon is required")
	}
	if rec.MinZoom < 0 || rec.MaxZoom < rec.MinZoom {
		return fmt.Errorf("minZoom, maxZoom: %d..%d is not a range of levels", rec.MinZoom, rec.MaxZoom)
	}
	if rec.Resolution < 0 {
		return fmt.Errorf("resolution: %g is negative", rec.Resolution)
	}
	return nil
}
