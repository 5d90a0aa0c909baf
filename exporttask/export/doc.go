// Package export runs real exports over a catalog: [Exporter] looks the
// requested record up, checks the request against it (domain, region of
// interest) and hands a [Job] to the [Domain] exporter of the record's
// domain: the raster (GeoPackage), dem (GeoTIFF) and tiles3d (3D Tiles)
// subpackages.
package export
