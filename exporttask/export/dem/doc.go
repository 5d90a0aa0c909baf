// Package dem exports DEM records as Cloud Optimized GeoTIFFs cut from the
// GeoTIFF or COG the record was registered with. [Inspect] reads a source
// file and returns what its record holds; [New] returns an [Exporter]
// implementing the export.Domain contract; [WriteDemoSource] writes the
// demo landscape as a GeoTIFF to register.
//
// # Sources
//
// A record's source is a GeoTIFF file referenced in place by
// Record.Source (absolute path, size and modification time at
// registration); an export whose source is missing or changed fails with a
// permanent error asking to register it again. A record without a Source
// cannot be exported. The file is read in pure Go, only the blocks a
// window meets. It must be:
//   - a classic TIFF or a BigTIFF, either byte order, in strips or tiles,
//     with one band (a file of several bands, RGB or not, is refused:
//     extract the elevation band with `gdal_translate -b 1`);
//   - compressed with none, LZW, Deflate (Compression 8 or 32946) or
//     PackBits, with predictor 1, 2 or 3 (3 on floating-point samples);
//     JPEG, LERC, ZSTD, WebP and the rest are refused;
//   - of sample type Int8, Byte, Int16, UInt16, Int32, UInt32, Float32 or
//     Float64 (no complex or sub-byte types);
//   - in EPSG:4326: GeoKeys with GeographicType 4326, or a user-defined
//     geographic CRS on the WGS 84 datum or ellipsoid, in degrees, on
//     Greenwich; or in another CRS the crs package transforms (given by
//     its EPSG code: UTM zones, Web Mercator, national Transverse Mercator
//     and Lambert grids, see crs.FromEPSG). Such a source registers, its
//     footprint transformed to longitude/latitude, but [NeedsWarp] says it
//     must be warped and its exports fail with a permanent error until the
//     exporter warps. Any other CRS is refused with the `gdalwarp -t_srs
//     EPSG:4326 -dstnodata …` command to run;
//   - georeferenced by ModelPixelScale and ModelTiepoint, or by a
//     ModelTransformation without rotation, north-up. PixelIsPoint rasters
//     are shifted half a pixel up and left, as GDAL reads them.
//
// Pixels equal to the GDAL_NODATA value (compared in the sample type), and
// NaN in floating-point files, have no data. Internal masks are not read.
// Overviews are ignored: the full-resolution image is read. Pixels need not
// be square; Record.Resolution holds the pixel width.
//
// Every refusal is a *export.SourceError, one line "FILE: PROBLEM; FIX".
//
// # Artifacts
//
// An export writes three artifacts:
//   - MODEL "<record id>.tif": a one-band Cloud Optimized GeoTIFF in
//     EPSG:4326 (tiled 512×512, Deflate with a predictor, overviews while
//     larger than a tile) holding the source pixels that `gdal_translate
//     -projwin west north east south` cuts for the job's box (first column
//     floor((west-x0)/dx + 0.001), width floor((east-west)/dx + 0.5), and
//     likewise for rows; clipped to the source, at least one pixel), in the
//     source's sample type, with the nodata value at every pixel whose
//     centre is outside the exported area. The nodata value (GDAL_NODATA)
//     is the source's, or, for a source without one (or one its type cannot
//     hold), [DefaultNoData]: the type's lowest value (highest for unsigned
//     types);
//   - ROI "roi.geojson": the region exported, the request's ROI or the
//     footprint when the request has none;
//   - METADATA "metadata.json": a STAC 1.0.0 Item (built by the shared
//     exportio.NewItem) whose geometry and bbox are the exported area,
//     whose datetime is the time the export was made, and whose assets are
//     the GeoTIFF (with the projection extension's proj:shape and
//     proj:transform) and the ROI, with their sizes and SHA-256 checksums
//     (the Item cannot hold its own). Its DEM properties are
//     "exporttask:width" and "exporttask:height" (the grid in pixels),
//     "exporttask:resolution" and "exporttask:pixelHeight" (pixel width
//     and height in degrees), "exporttask:gridBBox" (the GeoTIFF's extent,
//     [west, south, east, north], snapped to the source's pixels, so a
//     little beyond the exported box), "exporttask:sampleType",
//     "exporttask:noData" (see [NoDataValue]), "exporttask:dataPixels"
//     (the pixels holding an elevation) and "exporttask:compression".
//
// No LEGEND artifact is written: the GeoTIFF holds heights, not classes or
// colours, and GDAL and GIS tools derive their own colour scale from its
// statistics.
//
// Progress is counted in rows read from the source.
//
// # Memory
//
// An export's working memory is bounded by Options.MemoryBudget
// ([DefaultMemoryBudget], 256 MiB, unless set), whatever the size of the
// source and of the window: the window is streamed row by row from the
// source's blocks, and the COG's overviews are averaged from the rows of
// the level above as they arrive, never from a whole band. The reader
// takes up to a quarter of the budget, or half for a source of large
// strips (a decoder per core, and the
// window's part of one row of source blocks, kept in a scratch file when
// it does not fit); the COG writer the rest (two rows of tiles per level,
// or a scratch file for the levels that do not fit). A source one of whose
// blocks does not fit half the budget cannot be exported, and a window
// too wide for the writer's share even with scratch files (for Int16,
// about 150 bytes per pixel of width) is refused with a validation error
// on the ROI naming the budget, when the export is estimated at create.
package dem
