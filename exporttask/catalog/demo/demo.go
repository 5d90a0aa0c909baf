package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/register"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
)

// The ids of the demo records.
const (
	RasterID  = "8b867544-2dab-43a1-be6e-f23ec83c19b4"
	DEMID     = "3f2d8a5e-6c1b-4e7a-9d40-1b2c3d4e5f60"
	Tiles3DID = "c0ffee00-3d3d-4d3d-8d3d-0123456789ab"
)

// The sources the domains' WriteDemoSource write into a directory, as
// Write registers them.
const (
	// demSource is the DEM's GeoTIFF.
	demSource = dem.DemoFile
	// rasterSource is the RASTER's GeoPackage, and rasterTable its tile
	// table.
	rasterSource = raster.SourceName
	rasterTable  = "tiles"
	// tiles3DSource is the 3D tileset's directory.
	tiles3DSource = tiles3d.SourceDir
)

// footprint is the demo records' footprint: lon 34–35, lat 31–32.
func footprint() *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})
}

// Records returns the demo records as Write makes their sources (without
// Source and Location): a RASTER shaded relief at tile levels 0 to 10, a
// DEM at 1/1200° (about 90 m) and a 3D tileset of the grid's tiles at
// levels 7 to 9. The records Write registers have the levels or resolution
// their domain's Inspect reads from the data: the same for the RASTER
// and the DEM; for the 3D tileset, the depth of its tree.
func Records() []catalog.Record {
	return []catalog.Record{
		{ID: RasterID, Domain: exporttask.DomainRaster, Title: "Demo shaded relief (RASTER)",
			Footprint: footprint(), MinZoom: 0, MaxZoom: 10},
		{ID: DEMID, Domain: exporttask.DomainDEM, Title: "Demo elevation model (DEM)",
			Footprint: footprint(), Resolution: 1.0 / 1200},
		{ID: Tiles3DID, Domain: exporttask.Domain3D, Title: "Demo terrain mesh (3D)",
			Footprint: footprint(), MinZoom: 7, MaxZoom: 9},
	}
}

// Write adds to the catalog in root (created if missing) each demo record
// it does not hold yet, and reports how many it wrote: 0 when all three
// are there, so calling it at every start is cheap.
//
// Each record is registered as any source is (see [register.Add]): its
// domain's WriteDemoSource writes the source into a temporary directory,
// and the record is added with a copy of it, with the fixed id, title and
// footprint of [Records]; the levels or resolution come from the data.
// Each record appears whole or not at all.
//
// A demo record written by a version before sources were registered (one
// without a Source) is replaced the same way: removed, then added again.
func Write(root string) (int, error) {
	ctx := context.Background()
	written := 0
	for _, rec := range Records() {
		st, err := stateOf(ctx, root, rec.ID)
		if err != nil {
			return written, fmt.Errorf("demo: record %s (%s): %w", rec.ID, rec.Domain, err)
		}
		if st == current {
			continue
		}
		if err := add(ctx, root, rec, st == outdated); err != nil {
			return written, fmt.Errorf("demo: writing record %s (%s): %w", rec.ID, rec.Domain, err)
		}
		written++
	}
	return written, nil
}

// state is what a catalog holds of a demo record.
type state int

const (
	missing  state = iota // no record with the id
	current               // a record with a registered source
	outdated              // a record without a source, from an older version
)

// stateOf tells what the catalog in root holds of the record id.
func stateOf(ctx context.Context, root, id string) (state, error) {
	cat, err := catalog.Open(root)
	if errors.Is(err, os.ErrNotExist) {
		return missing, nil
	}
	if err != nil {
		return missing, err
	}
	rec, err := cat.Record(ctx, id)
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return missing, nil
	case err != nil:
		return missing, err
	case rec.Source == nil:
		return outdated, nil
	}
	return current, nil
}

// add writes rec's demo source into a temporary directory and registers a
// copy of it as rec, replacing the outdated record of the same id when
// replace is set.
func add(ctx context.Context, root string, rec catalog.Record, replace bool) (err error) {
	tmp, err := os.MkdirTemp("", "exporttask-demo-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	opts := register.Options{Domain: rec.Domain, ID: rec.ID, Title: rec.Title, Footprint: rec.Footprint, Copy: true,
		Replace: replace}
	var (
		write  func(dir string, rec catalog.Record) error
		source string
	)
	switch rec.Domain {
	case exporttask.DomainRaster:
		write, source, opts.Table = raster.WriteDemoSource, rasterSource, rasterTable
	case exporttask.DomainDEM:
		write, source = dem.WriteDemoSource, demSource
	default:
		write, source = tiles3d.WriteDemoSource, tiles3DSource
	}
	if err := write(tmp, rec); err != nil {
		return err
	}
	_, err = register.Add(ctx, root, filepath.Join(tmp, source), opts)
	return err
}
