package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/openapi-viewer/viewer/exporttask/internal/recordid"
)

// List returns every record of the catalog, sorted by id, each with its
// Location set. Entries of the root that are not a record directory (names
// that are not a lower-case UUID, such as the hidden directories of a
// record being written or removed) are skipped. A manifest that cannot be
// read or is malformed does not hide the others: List returns the records
// it could read with an error naming each such file, as [Catalog.Record]
// does.
func (c *Catalog) List(ctx context.Context) ([]Record, error) {
	entries, err := os.ReadDir(c.root)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	var recs []Record
	var errs []error
	for _, e := range entries {
		if canon, ok := recordid.Canonical(e.Name()); !ok || canon != e.Name() || !e.IsDir() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := c.Record(ctx, e.Name())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		recs = append(recs, rec)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	return recs, errors.Join(errs...)
}
