package exportserver

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"
	"strings"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

// Exit statuses of [RunCatalog].
const (
	// ExitOK: done.
	ExitOK = 0
	// ExitFailed: the command could not be done (a bad source, an unknown
	// record, an id already taken, a file that cannot be read).
	ExitFailed = 1
	// ExitUsage: the command line is wrong.
	ExitUsage = 2
)

// catalogUsage is the help of the catalog command.
const catalogUsage = `usage:
  server catalog add [-catalog DIR] -domain RASTER|DEM|3D [-id UUID [-replace]] [-title TEXT]
                     [-footprint FILE.geojson] [-copy] [-table NAME] [-scheme tms|xyz] SOURCE
      registers SOURCE (DEM: a GeoTIFF; RASTER: a GeoPackage, a tile directory or
      a GeoTIFF of 8-bit imagery; 3D: a 3D Tiles tileset directory) and prints the
      record as one line of JSON
  server catalog list [-catalog DIR]
      prints each record as one line of JSON, sorted by id
  server catalog remove [-catalog DIR] ID
      removes a record (and a source copied into it; a referenced source stays)
  server catalog verify [-catalog DIR] [ID...]
      reads each record's source whole and prints "ID ok|refreshed|changed|missing";
      exits 1 when any is changed or missing (refreshed: the same content with a new
      modification time, which the record now holds)

-catalog defaults to $EXPORTTASK_CATALOG, else ` + DefaultCatalog + `, the server's default.
Run "server catalog add -h" for the flags of add.
`

// RunCatalog runs the catalog command, args being the arguments after
// "catalog": add, list, remove or verify (see the command's doc). Results go to
// stdout; errors go to stderr, one line each. getenv reads
// EXPORTTASK_CATALOG, the default of -catalog. It returns the exit status:
// [ExitOK], [ExitFailed] or [ExitUsage] (-h prints the help and returns
// ExitOK).
func RunCatalog(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, catalogUsage)
		return ExitUsage
	}
	var run func(context.Context, *flag.FlagSet, *string, []string, io.Writer) error
	switch args[0] {
	case "add":
		run = catalogAdd
	case "list":
		run = catalogList
	case "remove":
		run = catalogRemove
	case "verify":
		run = catalogVerify
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, catalogUsage)
		return ExitOK
	default:
		fmt.Fprintf(stderr, "catalog: unknown command %q\n%s", args[0], catalogUsage)
		return ExitUsage
	}
	name := "catalog " + args[0]
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := getenv(envName("catalog"))
	if dir == "" {
		dir = DefaultCatalog
	}
	cat := fs.String("catalog", dir, "catalog `DIR` [$"+envName("catalog")+"]")
	err := run(ctx, fs, cat, args[1:], stdout)
	var usage usageError
	var se *export.SourceError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &usage):
		if usage.msg != "" { // the flag package has said the rest
			fmt.Fprintf(stderr, "%s: %s\n", name, usage.msg)
		}
		return ExitUsage
	case errors.As(err, &se):
		fmt.Fprintln(stderr, oneLine(se.Error()))
		return ExitFailed
	default:
		fmt.Fprintf(stderr, "%s: %s\n", name, oneLine(err.Error()))
		return ExitFailed
	}
}

// usageError is a wrong command line; msg is empty when the flag package
// has already written the problem and the usage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// usagef returns a usageError.
func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// parseArgs parses flags placed before and after the positional
// arguments, and returns the positional ones. After "--" every argument
// is positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{}
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// catalogAdd is "catalog add": it registers a source and prints its
// record as one line of JSON, as catalog list does.
func catalogAdd(ctx context.Context, fs *flag.FlagSet, root *string, args []string, stdout io.Writer) error {
	var (
		domain    = fs.String("domain", "", "the record's domain: `RASTER`, DEM or 3D (required)")
		id        = fs.String("id", "", "the record's `UUID` (default: a random one)")
		title     = fs.String("title", "", "the record's `title` (default: with -replace the replaced record's title, else the data's title if it has one, else the source's base name)")
		footprint = fs.String("footprint", "", "GeoJSON `FILE` (Polygon, MultiPolygon, Feature or FeatureCollection) replacing the footprint read from the data")
		copySrc   = fs.Bool("copy", false, "copy the source into the record's directory (default: reference it where it is)")
		table     = fs.String("table", "", "`NAME` of the tile table of a RASTER GeoPackage (needed when it holds several)")
		scheme    = fs.String("scheme", register.SchemeTMS, "row order of a RASTER tile directory: `tms` (gdal2tiles.py) or xyz")
		replace   = fs.Bool("replace", false, "replace the record -id names, e.g. after its source moved (the new source is checked first)")
	)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: server catalog add [flags] SOURCE\n\nregisters SOURCE and prints the record as one line of JSON; flags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("one SOURCE is needed, got %d arguments", len(pos))
	}
	opts := register.Options{Domain: exporttask.Domain(strings.ToUpper(*domain)), Title: *title, Copy: *copySrc, Table: *table}
	if !opts.Domain.Valid() {
		return usagef("-domain must be RASTER, DEM or 3D, got %q", *domain)
	}
	if *replace && *id == "" {
		return usagef("-replace needs the -id of the record to replace")
	}
	opts.Replace = *replace
	if *id != "" {
		if _, err := catalog.ParseID(*id); err != nil {
			return usagef("-id: %q is not a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", *id)
		}
		opts.ID = *id
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if explicit["scheme"] {
		if *scheme != register.SchemeTMS && *scheme != register.SchemeXYZ {
			return usagef("-scheme must be tms or xyz, got %q", *scheme)
		}
		if opts.Domain != exporttask.DomainRaster {
			return usagef("-scheme applies to RASTER tile directories only")
		}
		opts.Scheme = *scheme
	}
	if opts.Table != "" && opts.Domain != exporttask.DomainRaster {
		return usagef("-table applies to RASTER GeoPackages only")
	}
	if *footprint != "" {
		g, err := readFootprint(*footprint)
		if err != nil {
			return fmt.Errorf("-footprint: %w", err)
		}
		opts.Footprint = g
	}
	others := registeredElsewhere(ctx, *root, pos[0], opts.ID)
	rec, err := register.Add(ctx, *root, pos[0], opts)
	if errors.Is(err, iofs.ErrExist) && !opts.Replace {
		return fmt.Errorf("%w; give -replace to register the source again under this id", err)
	}
	if err != nil {
		return err
	}
	for _, other := range others {
		fmt.Fprintf(fs.Output(), "catalog add: warning: %s is also registered as record %s; remove one with \"catalog remove ID\" unless both are wanted\n",
			pos[0], other)
	}
	return json.NewEncoder(stdout).Encode(viewOf(rec))
}

// registeredElsewhere returns the ids of the records of the catalog at
// root, other than id, whose source is the file or directory src refers
// to; nothing when the catalog cannot be read (the add reports that).
func registeredElsewhere(ctx context.Context, root, src, id string) []string {
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil
	}
	cat, err := catalog.Open(root)
	if err != nil {
		return nil
	}
	recs, _ := cat.List(ctx) // the records it could read
	var ids []string
	for _, rec := range recs {
		if rec.Source != nil && rec.Source.Path == abs && !strings.EqualFold(rec.ID, id) {
			ids = append(ids, rec.ID)
		}
	}
	return ids
}

// catalogList is "catalog list": one line of JSON per record.
func catalogList(ctx context.Context, fs *flag.FlagSet, root *string, args []string, stdout io.Writer) error {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: server catalog list [-catalog DIR]\n\nprints each record as one line of JSON, sorted by id; flags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("unexpected arguments: %s", strings.Join(pos, " "))
	}
	cat, err := catalog.Open(*root)
	if err != nil {
		return err
	}
	recs, listErr := cat.List(ctx) // the records it could read, and what it could not
	enc := json.NewEncoder(stdout)
	for _, rec := range recs {
		if err := enc.Encode(viewOf(rec)); err != nil {
			return err
		}
	}
	return listErr
}

// catalogRemove is "catalog remove ID".
func catalogRemove(ctx context.Context, fs *flag.FlagSet, root *string, args []string, _ io.Writer) error {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: server catalog remove [-catalog DIR] ID\n\nremoves the record ID and a source copied into it; a referenced source stays; flags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("one record ID is needed, got %d arguments", len(pos))
	}
	if _, err := catalog.ParseID(pos[0]); err != nil {
		return usagef("%q is not a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", pos[0])
	}
	cat, err := catalog.Open(*root)
	if err != nil {
		return err
	}
	return cat.Remove(ctx, pos[0])
}

// catalogVerify is "catalog verify [ID...]": one line per record, its
// state and, unless ok, the file, what differs and what to do. A changed
// or missing source is an error (exit status 1) once all are printed.
func catalogVerify(ctx context.Context, fs *flag.FlagSet, root *string, args []string, stdout io.Writer) error {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: server catalog verify [-catalog DIR] [ID...]\n\n"+
			"checks the sources of the records (all without ID), reading each whole, and prints each as\n"+
			"\"ID ok\", \"ID refreshed: ...\", \"ID changed: ...\" or \"ID missing: ...\"; flags:")
		fs.PrintDefaults()
	}
	ids, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := catalog.ParseID(id); err != nil {
			return usagef("%q is not a UUID such as 0b3c7f1e-5d2a-4c8e-9f61-2a7d4e9b1c05", id)
		}
	}
	found, verr := register.Verify(ctx, *root, ids)
	bad := 0
	for _, v := range found {
		line := v.ID + " " + v.State.String()
		switch v.State {
		case catalog.StateRefreshed:
			line += ": " + v.File + ": " + v.Why
		case catalog.StateChanged:
			line += ": " + v.File + ": " + v.Why + "; register it again with `" + v.Fix + "`"
			bad++
		case catalog.StateMissing:
			line += ": " + v.File + ": " + v.Why + "; if it moved, register it again from where it is with `" + v.Fix + "`"
			bad++
		}
		if _, err := fmt.Fprintln(stdout, oneLine(line)); err != nil {
			return err
		}
	}
	if bad > 0 {
		verr = errors.Join(fmt.Errorf("%d of %d records changed or missing", bad, len(found)), verr)
	}
	return verr
}

// recordView is a record as the catalog command prints it: the JSON of
// [catalog.Record], except that a RASTER or 3D record always shows
// minZoom and maxZoom (0 included), and a DEM its resolution.
type recordView struct {
	ID         string               `json:"id"`
	Domain     exporttask.Domain    `json:"domain"`
	Title      string               `json:"title,omitempty"`
	Footprint  *exporttask.Geometry `json:"footprint"`
	MinZoom    *int                 `json:"minZoom,omitempty"`
	MaxZoom    *int                 `json:"maxZoom,omitempty"`
	Resolution *float64             `json:"resolution,omitempty"`
	Source     *catalog.Source      `json:"source,omitempty"`
}

// viewOf returns the view of rec.
func viewOf(rec catalog.Record) recordView {
	v := recordView{ID: rec.ID, Domain: rec.Domain, Title: rec.Title, Footprint: rec.Footprint, Source: rec.Source}
	if rec.Domain == exporttask.DomainDEM {
		v.Resolution = &rec.Resolution
	} else {
		v.MinZoom, v.MaxZoom = &rec.MinZoom, &rec.MaxZoom
	}
	return v
}

// oneLine joins the lines of s, so that an error is one line at the
// terminal.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
