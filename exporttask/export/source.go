package export

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask/catalog"
)

// SourcePath returns the path of rec's registered source, resolved against
// the record's directory when it is relative, after checking that it is
// still what was registered (see [catalog.Source.Check]): it exists, and
// the file (or, for a directory source, the index file named by index,
// e.g. "tileset.json") has the size and content recorded in rec.Source.
// A file whose modification time moved but whose content is the one
// registered (a touch, a copy without -p) is accepted, and the record in
// rec.Location takes the new time, so the whole file is read once per
// such change, not per use. Anything else is an
// [PermanentError] whose reason says what changed and gives the
// command that registers the source again, as retrying cannot bring the
// data back. A record without a Source is an error too: callers handle
// legacy records before calling.
func SourcePath(rec catalog.Record, index string) (string, error) {
	return SourcePathContext(context.Background(), rec, index)
}

// SourcePathContext is [SourcePath], stopping when ctx is done while it
// reads the whole file.
func SourcePathContext(ctx context.Context, rec catalog.Record, index string) (string, error) {
	src := rec.Source
	if src == nil || src.Path == "" {
		return "", Permanent("catalog record "+rec.ID+" has no registered source",
			fmt.Errorf("export: record %s: no source", rec.ID))
	}
	p := src.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(rec.Location, p)
	}
	check := p
	if index != "" {
		check = filepath.Join(p, index)
	}
	found := src.Check(ctx, check, false)
	switch found.State {
	case catalog.StateMissing:
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return "", Permanent(fmt.Sprintf("the source of catalog record %s (%s) %s; "+
			"if it moved, register it again from where it is with `%s`", rec.ID, check, found.Why, catalog.ReplaceCommand(rec)),
			found.Err)
	case catalog.StateChanged:
		return "", Permanent(fmt.Sprintf("the source of catalog record %s (%s) changed after it was "+
			"registered (%s); register it again with `%s`", rec.ID, check, found.Why, catalog.ReplaceCommand(rec)),
			fmt.Errorf("export: record %s: source %s changed", rec.ID, check))
	case catalog.StateRefreshed:
		// The content is the one registered. A manifest that cannot take
		// the new time (a read-only catalog) only means that the next use
		// reads the file again.
		_ = catalog.Refresh(rec.Location, *src, found.Info.ModTime())
	}
	if src.Format == "GPKG" && src.WALChanged(p) {
		return "", Permanent(fmt.Sprintf("the write-ahead log of the source of catalog record %s changed after it "+
			"was registered (tiles were written to it); register it again with `%s`", rec.ID, catalog.ReplaceCommand(rec)),
			fmt.Errorf("export: record %s: write-ahead log of %s changed", rec.ID, p))
	}
	return p, nil
}

// SourceError is a source that cannot be registered as a record: the file
// it is about, what is wrong with it and what to do. Its message is one
// line, "FILE: PROBLEM; FIX", for people at a terminal.
type SourceError struct {
	// File is the file or directory at fault.
	File string
	// Problem says what is wrong, e.g. "the CRS is projected (EPSG:32636)".
	Problem string
	// Fix says what to do, e.g. "reproject with gdalwarp -t_srs EPSG:4326".
	// Empty when there is nothing to suggest.
	Fix string
	// Err is the underlying error, if any.
	Err error
}

func (e *SourceError) Error() string {
	if e.Fix == "" {
		return e.File + ": " + e.Problem
	}
	return e.File + ": " + e.Problem + "; " + e.Fix
}

func (e *SourceError) Unwrap() error { return e.Err }
