package demo

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
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

// footprint is the demo records' footprint: lon 34–35, lat 31–32.
func footprint() *exporttask.Geometry {
	return exporttask.NewPolygon([]exporttask.Position{{34, 31}, {35, 31}, {35, 32}, {34, 32}, {34, 31}})
}

// Records returns the demo records (without Location): a RASTER shaded
// relief at tile levels 0 to 10, a DEM at 1/1200° (about 90 m) and a 3D
// tileset at levels 7 to 9.
func Records() []exporttask.Record {
	return []exporttask.Record{
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
// are there, so calling it at every start is cheap. Each record appears
// whole or not at all (see [catalog.WriteRecord]).
func Write(root string) (int, error) {
	written := 0
	for _, rec := range Records() {
		fill := fillerOf(rec)
		err := catalog.WriteRecord(root, rec, func(dir string) error { return fill(dir, rec) })
		switch {
		case errors.Is(err, fs.ErrExist):
			continue
		case err != nil:
			return written, fmt.Errorf("demo: writing record %s (%s): %w", rec.ID, rec.Domain, err)
		}
		written++
	}
	return written, nil
}

// fillerOf returns the function that writes rec's data.
func fillerOf(rec exporttask.Record) func(dir string, rec exporttask.Record) error {
	switch rec.Domain {
	case exporttask.DomainRaster:
		return raster.WriteDemoSource
	case exporttask.DomainDEM:
		return dem.WriteDemoSource
	default:
		return tiles3d.WriteDemoSource
	}
}
