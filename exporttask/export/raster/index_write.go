package raster

import (
	"context"
	"errors"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// WriteIndex builds the selection index of rec's tile pyramid (a
// GeoPackage, TMS or XYZ source; other records have none) and writes it
// as IndexName into dir, the record's directory or the one being filled
// for it, which rec.Location is taken to be: catalog add calls it once,
// where it reads the whole source anyway, so that no create reads the
// source's tiles. A source with too many tiles for an index gets a file
// saying so. It stops when ctx is done.
func WriteIndex(ctx context.Context, rec catalog.Record, dir string) error {
	if rec.Source != nil && rec.Source.Format != FormatGPKG && rec.Source.Format != FormatTMS && rec.Source.Format != FormatXYZ {
		return nil
	}
	rec.Location = dir
	src, err := openSource(ctx, rec)
	if err != nil {
		return err
	}
	defer src.Close()
	identity := indexIdentity(rec, src)
	ix, err := buildIndex(ctx, src, identity)
	if err != nil && !errors.Is(err, errIndexTooLarge) {
		return err
	}
	path := indexPath(rec)
	if path == src.path {
		return nil
	}
	return writeIndexFile(path, identity, ix)
}
