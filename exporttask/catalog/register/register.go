package register

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
)

// The row orders of a RASTER tile directory ([Options.Scheme]).
const (
	// SchemeTMS numbers rows from the south, as gdal2tiles.py writes them
	// (with tilemapresource.xml beside the levels).
	SchemeTMS = "tms"
	// SchemeXYZ numbers rows from the north.
	SchemeXYZ = "xyz"
)

// Options say how to register a source. Only Domain is required.
type Options struct {
	// Domain is the record's domain: [exporttask.DomainDEM] for a GeoTIFF,
	// [exporttask.DomainRaster] for a GeoPackage, a tile directory or a
	// GeoTIFF of 8-bit imagery (told apart by its TIFF header),
	// [exporttask.Domain3D] for a 3D Tiles tileset directory (or its
	// tileset.json). Required.
	Domain exporttask.Domain
	// ID is the record's id, a UUID in either case (stored in lower case).
	// Default: a random UUID (version 4).
	ID string
	// Title names the record for people. Default: with Replace, the
	// replaced record's title; else the title the data holds, if its
	// domain's Inspect finds one (a GeoPackage table's identifier, a tile
	// map's Title), else the source's base name.
	Title string
	// Footprint replaces the footprint read from the data: a Polygon or
	// MultiPolygon in WGS 84 longitude/latitude. Default: the data's
	// (see the domain's Inspect).
	Footprint *exporttask.Geometry
	// Copy copies the source (a file, or a directory with everything in
	// it) into the record's directory, under its base name, and records
	// that relative path; the copy goes when the record is removed.
	// Default false: the record references the source by absolute path,
	// and the source is never copied, moved or deleted.
	Copy bool
	// Table is the tile table of a RASTER GeoPackage. Default: the
	// GeoPackage's only tile table (one holding several needs it).
	Table string
	// Scheme is the row order of a RASTER tile directory, [SchemeTMS] or
	// [SchemeXYZ]. Default [SchemeTMS].
	Scheme string
	// Replace replaces the record ID names when the catalog holds it (to
	// register a source again after it moved or changed): the source is
	// read first, so a bad one leaves the old record in place; then the
	// old record is removed (see [catalog.Catalog.Remove]) and the new one
	// written, and an export created in between does not find it.
	// Requires ID. Default false: an id already in the catalog is an
	// error.
	Replace bool
}

// inspectFunc reads a source and returns what a record of it holds; it is
// the signature of the domains' Inspect.
type inspectFunc func(context.Context, catalog.Source) (catalog.Record, error)

// registrar adds records, reading sources with the inspectors of its
// domains; tests give it fakes.
type registrar struct {
	inspect map[exporttask.Domain]inspectFunc
	index   func(catalog.Source) string // the file a source's fingerprints are of
	// prepare writes what a domain derives from a source once (RASTER: its
	// selection index) into the record's directory being filled.
	prepare map[exporttask.Domain]prepareFunc
}

// prepareFunc writes derived data of rec's source into dir, the record's
// directory being filled; it is the signature of raster.WriteIndex.
type prepareFunc func(ctx context.Context, rec catalog.Record, dir string) error

// domainRegistrar reads sources with the domains' own Inspect.
func domainRegistrar() registrar {
	return registrar{inspect: map[exporttask.Domain]inspectFunc{
		exporttask.DomainDEM:    dem.Inspect,
		exporttask.DomainRaster: raster.Inspect,
		exporttask.Domain3D:     tiles3d.Inspect,
	}, index: func(s catalog.Source) string { return IndexFile(s, "") },
		prepare: map[exporttask.Domain]prepareFunc{exporttask.DomainRaster: raster.WriteIndex}}
}

// Add registers source (a path, relative to the working directory or
// absolute) as a record of the catalog in root, created if missing, and
// returns the record as written, its Location set. The source is read by
// its domain's Inspect, which gives the footprint, the levels or the
// resolution, and Source (its format, size and modification time); opts
// give the rest.
//
// Nothing is written to the catalog when the source cannot be registered:
// a source its domain cannot export, or one that does not exist, is an
// error wrapping a *[export.SourceError] (find it with errors.As; its
// message is one line naming the file, the problem and what to do). An id
// already in the catalog is an error wrapping [fs.ErrExist], unless
// opts.Replace is set; bad options are errors naming the option.
func Add(ctx context.Context, root, source string, opts Options) (catalog.Record, error) {
	return domainRegistrar().add(ctx, root, source, opts)
}

func (r registrar) add(ctx context.Context, root, source string, opts Options) (catalog.Record, error) {
	if err := ctx.Err(); err != nil {
		return catalog.Record{}, err
	}
	id, err := checkOptions(&opts)
	if err != nil {
		return catalog.Record{}, err
	}
	inspect := r.inspect[opts.Domain]
	if inspect == nil {
		return catalog.Record{}, fmt.Errorf("register: Domain: no inspector for %s", opts.Domain)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return catalog.Record{}, fmt.Errorf("register: catalog %s: %w", root, err)
	}
	abs, err := filepath.Abs(source)
	if err != nil {
		return catalog.Record{}, fmt.Errorf("register: source %s: %w", source, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return catalog.Record{}, fmt.Errorf("register: %w", &export.SourceError{File: abs,
			Problem: "cannot be read (" + pathErrText(err) + ")", Fix: "check the path", Err: err})
	}
	if within(abs, absRoot) {
		return catalog.Record{}, fmt.Errorf("register: %w", &export.SourceError{File: abs,
			Problem: "is inside the catalog " + absRoot + ", where removing a record could delete it",
			Fix:     "keep the source outside the catalog, or register it from there with -copy"})
	}
	if opts.Copy && st.IsDir() && within(absRoot, abs) {
		return catalog.Record{}, fmt.Errorf("register: %w", &export.SourceError{File: abs,
			Problem: "holds the catalog " + absRoot + ", so it cannot be copied into it",
			Fix:     "register it without -copy, or keep the catalog elsewhere"})
	}
	format, err := formatOf(opts, abs, st.IsDir())
	if err != nil {
		return catalog.Record{}, err
	}
	_, err = os.Stat(filepath.Join(absRoot, id))
	exists := err == nil
	if exists && !opts.Replace {
		return catalog.Record{}, fmt.Errorf("register: record %s is already in the catalog %s: %w", id, absRoot, fs.ErrExist)
	}

	found, err := inspect(ctx, catalog.Source{Path: abs, Format: format, Table: opts.Table})
	if err != nil {
		return catalog.Record{}, fmt.Errorf("register: %w", err)
	}
	if found.Source == nil || found.Source.Path == "" {
		return catalog.Record{}, fmt.Errorf("register: the %s inspector returned no source for %s", opts.Domain, abs)
	}
	rec := found
	rec.ID, rec.Domain, rec.Location = id, opts.Domain, ""
	if opts.Title != "" {
		rec.Title = opts.Title
	} else if exists {
		// The record replaced keeps its title: the command a changed
		// source's message suggests carries no -title.
		if old, err := readTitle(ctx, absRoot, id); err == nil && old != "" {
			rec.Title = old
		}
	}
	if rec.Title == "" {
		rec.Title = filepath.Base(found.Source.Path)
	}
	if opts.Footprint != nil {
		rec.Footprint = opts.Footprint
	}
	src := *found.Source
	if err := fingerprint(ctx, &src, r.index(src)); err != nil {
		return catalog.Record{}, fmt.Errorf("register: %w", err)
	}
	if src.Format == "GPKG" { // a copy takes its log too (see copySource), with its size and time
		if src.WALSize, src.WALModTime, err = catalog.StatWAL(src.Path); err != nil {
			return catalog.Record{}, fmt.Errorf("register: %w", err)
		}
	}
	rec.Source = &src
	var fill func(dir string) error
	if opts.Copy {
		from := src.Path
		name := filepath.Base(from)
		if name == catalog.ManifestName {
			return catalog.Record{}, fmt.Errorf("register: %w", &export.SourceError{File: from,
				Problem: "its name is that of the record's manifest, so it cannot be copied beside it",
				Fix:     "rename it, or register it without -copy"})
		}
		src.Path = name
		withWAL := src.WALSize > 0
		fill = func(dir string) error { return copySource(ctx, from, filepath.Join(dir, name), withWAL) }
	}
	if prepare := r.prepare[opts.Domain]; prepare != nil {
		copyData := fill
		fill = func(dir string) error {
			if copyData != nil {
				if err := copyData(dir); err != nil {
					return err
				}
			}
			return prepare(ctx, rec, dir)
		}
	}
	if exists {
		cat, err := catalog.Open(absRoot)
		if err != nil {
			return catalog.Record{}, fmt.Errorf("register: %w", err)
		}
		if err := cat.Remove(ctx, id); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return catalog.Record{}, fmt.Errorf("register: replacing record %s: %w", id, err)
		}
	}
	if err := catalog.WriteRecord(absRoot, rec, fill); err != nil {
		return catalog.Record{}, fmt.Errorf("register: %w", err)
	}
	rec.Location = filepath.Join(absRoot, id)
	return rec, nil
}

// checkOptions checks opts, fills in the default scheme, and returns the
// record's id in canonical form (a new one when opts.ID is empty).
func checkOptions(opts *Options) (string, error) {
	if !opts.Domain.Valid() {
		return "", fmt.Errorf("register: Domain: %q is not one of %v", opts.Domain, exporttask.Domains())
	}
	if opts.Replace && opts.ID == "" {
		return "", errors.New("register: Replace: the ID of the record to replace is required")
	}
	id := catalog.NewID()
	if opts.ID != "" {
		var err error
		if id, err = catalog.ParseID(opts.ID); err != nil {
			return "", fmt.Errorf("register: ID: %w", err)
		}
	}
	if opts.Domain != exporttask.DomainRaster {
		if opts.Table != "" {
			return "", fmt.Errorf("register: Table: only a RASTER GeoPackage has tile tables, not a %s source", opts.Domain)
		}
		if opts.Scheme != "" {
			return "", fmt.Errorf("register: Scheme: only a RASTER tile directory has a row order, not a %s source", opts.Domain)
		}
	}
	switch opts.Scheme {
	case "":
		opts.Scheme = SchemeTMS
	case SchemeTMS, SchemeXYZ:
	default:
		return "", fmt.Errorf("register: Scheme: %q is not %s or %s", opts.Scheme, SchemeTMS, SchemeXYZ)
	}
	if opts.Footprint != nil && opts.Footprint.Polygons() == nil {
		return "", fmt.Errorf("register: Footprint: a %q is not a Polygon or MultiPolygon", opts.Footprint.Type)
	}
	return id, nil
}

// formatOf returns the format the source is expected to have
// ([catalog.Source.Format]), given its domain and whether it is a
// directory, or an error when the options do not fit the source.
func formatOf(opts Options, abs string, isDir bool) (string, error) {
	switch opts.Domain {
	case exporttask.DomainDEM:
		if isDir {
			return "", fmt.Errorf("register: %w", &export.SourceError{File: abs,
				Problem: "is a directory, not a GeoTIFF", Fix: "give the .tif file"})
		}
		return "GTiff", nil
	case exporttask.Domain3D:
		return "3DTILES", nil // a directory, or its tileset.json: tiles3d.Inspect tells
	}
	if !isDir {
		if opts.Scheme == SchemeXYZ {
			return "", fmt.Errorf("register: Scheme: %s is a file; a row order applies to tile directories only", abs)
		}
		return "GPKG", nil
	}
	if opts.Table != "" {
		return "", fmt.Errorf("register: Table: %s is a directory; tile tables are in GeoPackage files only", abs)
	}
	if opts.Scheme == SchemeXYZ {
		return "XYZ", nil
	}
	return "TMS", nil
}

// within reports whether path is dir or lies under it (both absolute and
// clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// pathErrText is the reason of a file system error, without the path the
// SourceError names already.
func pathErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readTitle returns the title of the record id in the catalog at root.
func readTitle(ctx context.Context, root, id string) (string, error) {
	cat, err := catalog.Open(root)
	if err != nil {
		return "", err
	}
	rec, err := cat.Record(ctx, id)
	if err != nil {
		return "", err
	}
	return rec.Title, nil
}
