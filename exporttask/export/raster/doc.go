// Package raster exports RASTER catalog records: it implements
// [export.Domain] with [Exporter], which [export.Exporter] calls for
// records of domain RASTER.
//
// A record's source is a tile pyramid on the EPSG:4326 grid of two
// 256×256 tiles at level 0 (GDAL's InspireCRS84Quad; row 0 at the top):
//
//   - a GeoPackage (OGC 12-128) with any tile table name, as
//     `gdal_translate -of GPKG -co TILING_SCHEME=InspireCRS84Quad` and
//     gdaladdo write it;
//   - a directory written by `gdal2tiles.py -p geodetic --tmscompatible`:
//     z/x/y tiles with TMS rows (row 0 at the bottom) and a
//     tilemapresource.xml, or with XYZ rows (--xyz).
//
// Tiles are PNG, JPEG or WebP images, and levels may have gaps. [Inspect]
// checks a source and returns its record (footprint, levels, and
// Record.Source: path, format, table, size and modification time); the
// exporter reads the source in place, refusing one that changed since (see
// [export.SourcePath]). A record without a Source, as written before
// sources were registered, reads <record directory>/tiles.gpkg, table
// "tiles", at every level from the record's MinZoom to its MaxZoom.
// [WriteSource] writes such a file from any tile renderer,
// [WriteDemoSource] the shaded relief of the demo catalog; it is also a
// source [Inspect] accepts (Format "GPKG", Table "tiles").
//
// An export is:
//
//   - <record id>.gpkg (GPKG): a GeoPackage 1.2 with the source tiles that
//     meet the exported area (the request's ROI within the footprint), at
//     every level or up to the maxZoom or maxResolutionDeg parameter,
//     copied byte for byte, without decoding, into its table "tiles"; its
//     extent (gpkg_contents) is the exported area's bounding box;
//   - thumbnail-small.png, thumbnail-medium.png, thumbnail-large.png
//     (THUMBNAILS_SMALL, _MEDIUM, _LARGE): the exported area drawn from the
//     source tiles of the first level holding tiles that is detailed
//     enough, 128, 256 and 512 pixels on the longest side, clear outside
//     the area;
//   - metadata.json (METADATA): see [Metadata].
//
// No LEGEND artifact is written: a record's tiles are an image, and the
// source holds no classes or colour scale a legend could be drawn from.
//
// Start with [Inspect], [New] and [Exporter.Export]; [Exporter.Estimate]
// counts the same tiles and their bytes without copying them (for a
// directory, sizes come from the file system).
package raster
