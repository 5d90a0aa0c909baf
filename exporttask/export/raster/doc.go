// Package raster exports RASTER catalog records: it implements
// [export.Engine] with [Exporter], which [export.CatalogExporter] calls for
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
// Tiles are PNG, JPEG or WebP images, and levels may have gaps.
//
// A record's source may also be imagery to render: a GeoTIFF or COG of
// 1, 3 or 4 bands of 8-bit samples (gray, RGB, RGBA, paletted; nodata, an
// alpha band or a mask), in EPSG:4326 or a CRS package crs transforms
// (Format [FormatGTiff]). Its levels are those GDAL's GeoPackage writer
// and gdaladdo make of it; an export renders each selected tile, nearest
// neighbour (each pixel takes the source pixel gdalwarp -et 0 gives it,
// its centre transformed exactly), from the source overview of the
// level's resolution, or, at a coarser level the full image serves, at
// the centre of the finest-level pixel gdaladdo -r nearest keeps (blocks
// decoded once into a cache of 48 MB), on every core, and
// encodes it as the [ParamTileFormat] parameter says (PNG, JPEG of
// quality [JPEGQuality], or AUTO); a tile without data is not written.
//
// [Inspect]
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
//     copied byte for byte, without decoding (or rendered from imagery),
//     into its table "tiles"; its
//     extent (gpkg_contents) is the exported area's bounding box grown
//     outward to the pixel grid of the finest exported level;
//   - thumbnail-small.png, thumbnail-medium.png, thumbnail-large.png
//     (THUMBNAILS_SMALL, _MEDIUM, _LARGE): the exported area drawn from the
//     source tiles of the first level holding tiles that is detailed
//     enough, 128, 256 and 512 pixels on the longest side, clear outside
//     the area;
//   - metadata.json (METADATA): a STAC 1.0.0 Item (built by the shared
//     exportio.NewItem) whose geometry and bbox are the exported area,
//     whose datetime is the time the export was made, and whose assets are
//     the other files with their sizes and SHA-256 checksums (the Item
//     cannot hold its own). Its RASTER properties are
//     "exporttask:minZoom" and "exporttask:maxZoom" (the levels exported),
//     "exporttask:levels" (each level's zoom, tiles, bytes and
//     pixelSizeDeg; see [LevelMetadata]), "exporttask:tiles" and
//     "exporttask:tileBytes" (their totals).
//
// A GeoPackage source is read with plain reads, never through a memory
// map: a source cut short or rewritten in place during an export (its
// size, modification time or file changed, or SQLite finds it damaged)
// fails that task with a permanent reason, and the process lives. Its
// tile table, gpkg_contents and gpkg_tile_matrix must be stored tables:
// not views (whose query could run without end), not virtual tables, and
// the tile table's columns not computed on read; a tile may hold at most
// [MaxTileBytes]. The copy reads the tile table by runs of row ids, in the
// file's own order, into a scratch GeoPackage built with 4 KiB pages, no
// journal and no fsync (moved or streamed into the output, hashed on the
// way). For part of a GeoPackage, the rows are read from the source's
// pages (1 MiB a read, while a read transaction of SQLite's keeps writers
// out; through SQLite's blob I/O when the source has a -wal file or a
// row is laid out otherwise than an INSERT of its columns stores it) and
// written into new pages of the scratch file, which SQLite created with
// its tables: the tile table and its index built bottom up (above
// 4,194,304 tiles SQLite builds the index). An export of every tile of a
// GeoPackage whose tile table is defined as the export's (GDAL's and this package's are)
// and that holds nothing else of size (only gpkg_* tables, at most 16 MiB,
// and no free pages) is instead a copy of the source's pages, in one read
// transaction of the source: the file, copied by the kernel, when it has
// no -wal file, else SQLite's online backup, which honours the -wal. The
// copy's triggers, views and metadata tables are then replaced by the
// export's (the dropped pages zeroed) and its tile table is renamed
// "tiles". The free space inside the tile table's pages is copied as it
// is: it may hold bytes of rows deleted from the source earlier.
//
// No LEGEND artifact is written: a record's tiles are an image, and the
// source holds no classes or colour scale a legend could be drawn from.
//
// # Selection index
//
// A create's estimate reads no tile of the source: [Exporter.Estimate]
// counts the tiles a job selects, and their bytes, from the record's
// selection index ([IndexName] in its directory): per level, row and 64
// columns, which tiles are present, their bytes and each tile's size to
// about 7%, some 96 bytes per 64 tiles. [WriteIndex] writes it at catalog
// add; an estimate that finds none of the source's identity (see
// catalog.Source.Version) builds and writes it once, and an [Exporter]
// keeps the indexes it read in memory (up to 24 MiB, least recently used
// dropped). Below 4,096 candidate tiles a level the count is the
// export's; above, every n-th candidate is tested against the area and
// stands for n. A source whose tiles fill more than 131,072 cells (a
// scattered pyramid), and GeoTIFF imagery, have no index: their estimates
// select the tiles as the export does.
//
// # Stopping
//
// An export stops at the next tile once its context is done: the copy
// looks at it at every tile, the imagery renderer's workers between
// tiles, and the thumbnails at every tile they decode; it then returns
// the context's error and leaves nothing in the output.
//
// Start with [Inspect], [New] and [Exporter.Export]; [Exporter.Estimate]
// counts the same tiles and their bytes without copying them (see
// Selection index above).
package raster
