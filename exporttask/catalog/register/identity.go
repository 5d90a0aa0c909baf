package register

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
)

// IndexFile returns the file whose size, modification time and content
// identify src (see [catalog.Source]), a relative Path resolved against
// location (the record's directory): the file itself for a GeoTIFF or a
// GeoPackage, tilemapresource.xml for a TMS directory (and for an XYZ
// directory that has one, else the directory itself), tileset.json for a
// 3D Tiles directory. The domains' exporters check the same file.
func IndexFile(src catalog.Source, location string) string {
	p := src.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(location, p)
	}
	switch src.Format {
	case raster.FormatTMS:
		return filepath.Join(p, raster.TileMapResource)
	case raster.FormatXYZ:
		if _, err := os.Stat(filepath.Join(p, raster.TileMapResource)); err == nil {
			return filepath.Join(p, raster.TileMapResource)
		}
		return p
	case tiles3d.SourceFormat:
		return filepath.Join(p, tiles3d.TilesetFile)
	}
	return p
}

// fingerprint fills in src.Content and src.Quick from the source's index
// file (see [IndexFile]), which must still have the size and modification
// time the inspector found: a file that changes while it is read is
// refused.
func fingerprint(ctx context.Context, src *catalog.Source, index string) error {
	content, quick, err := catalog.Fingerprints(ctx, index)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &export.SourceError{File: index, Problem: "cannot be read to its end", Fix: "check the file", Err: err}
	}
	if st, err := os.Stat(index); err != nil || st.Size() != src.Size || !st.ModTime().Equal(src.ModTime) {
		return &export.SourceError{File: index, Problem: "changed while it was being registered",
			Fix: "register it again once it is complete", Err: err}
	}
	src.Content, src.Quick = content, quick
	return nil
}

// Verified is what [Verify] found of one record.
type Verified struct {
	// ID is the record's id.
	ID string
	// State is ok, refreshed (the same content with another modification
	// time, which the record now holds), changed or missing.
	State catalog.State
	// File is the file checked (the source, or its index file); empty for a
	// record without a registered source.
	File string
	// Why says what differs, or why the file cannot be read.
	Why string
	// Fix is the command that registers the source again; empty for ok
	// and refreshed.
	Fix string
}

// Verify checks the sources of the records ids of the catalog in root
// (every record when ids is empty) against what each record holds,
// reading each file whole (see [catalog.Source.Check] with full set): a
// rewrite that kept the size and the modification time is found too. A
// source with the content registered but another modification time is
// [catalog.StateRefreshed], and its record takes the new time. A record
// without a registered source (its data in its directory) is
// [catalog.StateOK]. The results are in the order of ids, or sorted by id;
// an unknown id is an error wrapping [catalog.ErrNotFound], returned with
// the results of the others.
func Verify(ctx context.Context, root string, ids []string) ([]Verified, error) {
	cat, err := catalog.Open(root)
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	var recs []catalog.Record
	var errs []error
	if len(ids) == 0 {
		recs, err = cat.List(ctx)
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, id := range ids {
		rec, err := cat.Record(ctx, id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		recs = append(recs, rec)
	}
	out := make([]Verified, 0, len(recs))
	for _, rec := range recs {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, verify(ctx, rec))
	}
	return out, errors.Join(errs...)
}

// verify checks one record's source.
func verify(ctx context.Context, rec catalog.Record) Verified {
	v := Verified{ID: rec.ID}
	src := rec.Source
	if src == nil {
		return v
	}
	v.File = IndexFile(*src, rec.Location)
	found := src.Check(ctx, v.File, true)
	v.State, v.Why = found.State, found.Why
	if found.State == catalog.StateOK && src.Format == raster.FormatGPKG {
		p := src.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(rec.Location, p)
		}
		if src.WALChanged(p) {
			v.State, v.File, v.Why = catalog.StateChanged, p+catalog.WALSuffix, "the write-ahead log differs from that registered"
		}
	}
	switch v.State {
	case catalog.StateRefreshed:
		if err := catalog.Refresh(rec.Location, *src, found.Info.ModTime()); err != nil {
			v.Why = "the record could not take the new modification time: " + err.Error()
		} else {
			v.Why = "the content is that registered; the record now holds the modification time " +
				found.Info.ModTime().UTC().Format("2006-01-02T15:04:05.999999999Z")
		}
	case catalog.StateChanged, catalog.StateMissing:
		v.Fix = catalog.ReplaceCommand(rec)
	}
	return v
}
