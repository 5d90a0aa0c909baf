// Package raster exports RASTER catalog records: it implements
// [export.Domain] with [Exporter], which [export.Exporter] calls for
// records of domain RASTER.
//
// A record's source is <record directory>/tiles.gpkg, a GeoPackage
// (OGC 12-128) whose table "tiles" holds 256×256 PNG or JPEG tiles on the
// EPSG:4326 grid (two tiles at level 0, row 0 at the top) at every level
// from the record's MinZoom to its MaxZoom. [WriteSource] writes one from
// any tile renderer, [WriteDemoSource] the shaded relief of the demo
// catalog.
//
// An export is:
//
//   - <record id>.gpkg (GPKG): a GeoPackage 1.2 with the source tiles that
//     meet the exported area (the request's ROI within the footprint), at
//     every level or up to the maxZoom or maxResolutionDeg parameter,
//     copied as stored, without decoding; its extent (gpkg_contents) is the
//     exported area's bounding box;
//   - thumbnail-small.png, thumbnail-medium.png, thumbnail-large.png
//     (THUMBNAILS_SMALL, _MEDIUM, _LARGE): the exported area drawn from the
//     tiles of the first level detailed enough, 128, 256 and 512 pixels on
//     the longest side, clear outside the area;
//   - metadata.json (METADATA): see [Metadata].
//
// No LEGEND artifact is written: a record's tiles are an image, and the
// source holds no classes or colour scale a legend could be drawn from.
//
// Start with [New] and [Exporter.Export]; [Exporter.Estimate] counts the
// same tiles without copying them.
package raster
