package exporttasktest

import (
	"fmt"
	"os"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/catalog"
	"github.com/openapi-viewer/viewer/exporttask/catalog/demo"
	"github.com/openapi-viewer/viewer/exporttask/export"
	"github.com/openapi-viewer/viewer/exporttask/export/dem"
	"github.com/openapi-viewer/viewer/exporttask/export/raster"
	"github.com/openapi-viewer/viewer/exporttask/export/tiles3d"
)

// WithRealExports runs the real exporters, as the example server does,
// over the catalog in catalogDir (see package catalog; the example
// server's "catalog add" registers sources into one): a DEM task gives a
// Cloud Optimized GeoTIFF, a RASTER task a GeoPackage, a 3D task a 3D
// Tiles zip, with the server's artifact names and formats. With
// catalogDir "", the demo catalog ([demo.Records]: RASTER [demo.RasterID],
// DEM [demo.DEMID], 3D [demo.Tiles3DID]) is written into a temporary
// directory first, which takes a few seconds. The exports build their
// files in a temporary scratch directory; both are removed by
// [Server.Close]. [WithExporter] wins over it.
func WithRealExports(catalogDir string) Option {
	return func(c *config) { c.real, c.catalogDir = true, catalogDir }
}

// realExporter returns the real exporters over the catalog in dir (the
// demo catalog, in a new temporary directory, for dir ""), and what
// removes the temporary directories it made.
func realExporter(dir string) (export.Exporter, func() error, error) {
	var temps []string
	cleanup := func() error {
		for _, d := range temps {
			if err := os.RemoveAll(d); err != nil {
				return fmt.Errorf("removing %s: %w", d, err)
			}
		}
		return nil
	}
	fail := func(err error) (export.Exporter, func() error, error) {
		_ = cleanup()
		return nil, nil, err
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "exporttasktest-catalog-")
		if err != nil {
			return fail(fmt.Errorf("creating the demo catalog's directory: %w", err))
		}
		temps = append(temps, d)
		if _, err := demo.Write(d); err != nil {
			return fail(fmt.Errorf("writing the demo catalog: %w", err))
		}
		dir = d
	}
	cat, err := catalog.Open(dir)
	if err != nil {
		return fail(fmt.Errorf("opening the catalog %s: %w", dir, err))
	}
	scratch, err := os.MkdirTemp("", "exporttasktest-scratch-")
	if err != nil {
		return fail(fmt.Errorf("creating the scratch directory: %w", err))
	}
	temps = append(temps, scratch)
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{
		exporttask.DomainRaster: raster.New(raster.Options{TempDir: scratch}),
		exporttask.DomainDEM:    dem.New(dem.Options{TempDir: scratch}),
		exporttask.Domain3D:     tiles3d.New(tiles3d.Options{}),
	}, export.WithScratchDir(scratch))
	if err != nil {
		return fail(err)
	}
	return x, cleanup, nil
}
