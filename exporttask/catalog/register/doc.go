// Package register adds a team's own data to the file catalog (package
// [catalog]): it reads a source where it is, in the package of its domain
// (DEM: [dem.Inspect], RASTER: [raster.Inspect], 3D: [tiles3d.Inspect]),
// and writes a record that references it.
//
//	rec, err := register.Add(ctx, "exporttask-catalog", "/data/elevation.tif",
//		register.Options{Domain: exporttask.DomainDEM})
//
// The record's footprint and its levels or resolution come from the data,
// unless [Options.Footprint] is given. The record references the source by
// its absolute path, so a large file is never copied; with [Options.Copy]
// the source (a file or a whole directory) is copied into the record's
// directory instead, and the record holds a path relative to it.
//
// For a RASTER tile pyramid (GeoPackage, TMS, XYZ), the record's directory
// also gets its selection index ([raster.IndexName], see
// [raster.WriteIndex]), read once here so that a create reads none of the
// source's tiles.
//
// A source its domain cannot export is refused before anything is written
// to the catalog, with a *[export.SourceError] whose one-line message names
// the file, what is wrong and what to do. A record is written whole or not
// at all (see [catalog.WriteRecord]).
//
// To list records or remove one, use [catalog.Catalog.List] and
// [catalog.Catalog.Remove]: they need no knowledge of the domains.
//
// This package is separate from [catalog] because it imports the three
// domain packages, which a program that only reads the catalog does not
// need.
package register
