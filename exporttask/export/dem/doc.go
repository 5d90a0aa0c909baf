// Package dem exports DEM records as Cloud Optimized GeoTIFFs cut from the
// GeoTIFF or COG the record was registered with. [Inspect] reads a source
// file and returns what its record holds; [New] returns an [Exporter]
// implementing the export.Engine contract; [WriteDemoSource] writes the
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
//   - in EPSG:4326 (GeoKeys with GeographicType 4326, or a user-defined
//     geographic CRS on the WGS 84 datum or ellipsoid, in degrees, on
//     Greenwich), exported as it is; or in another CRS the crs package
//     transforms (given by its EPSG code: UTM zones, Web Mercator,
//     national Transverse Mercator and Lambert grids, see crs.FromEPSG):
//     such a source registers, its footprint transformed to
//     longitude/latitude, and [NeedsWarp] says its exports are warped to
//     EPSG:4326 (see Warping). Any other CRS is refused with the `gdalwarp
//     -t_srs EPSG:4326 -dstnodata …` command to run;
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
//     [west, south, east, north], snapped to the source's pixels, or to
//     the warped grid's, so a little beyond the exported box), "exporttask:sampleType",
//     "exporttask:noData" (see [NoDataValue]), "exporttask:dataPixels"
//     (the pixels holding an elevation) and "exporttask:compression".
//
// For a source in another CRS the GeoTIFF holds the source warped to
// EPSG:4326 instead (see Warping), on a window of the grid gdalwarp
// chooses for the source, in the source's sample type and with the same
// nodata rule.
//
// No LEGEND artifact is written: the GeoTIFF holds heights, not classes or
// colours, and GDAL and GIS tools derive their own colour scale from its
// statistics.
//
// Progress is counted in rows of the GeoTIFF written: rows read from the
// source, or, for a warped export, rows warped.
//
// # Warping
//
// A source in a CRS other than EPSG:4326 is warped as `gdalwarp -t_srs
// EPSG:4326 -te W S E N -tr R R -r bilinear|near -et 0 -of COG` warps it
// (GDAL 3.6), and the tests compare the two pixel for pixel:
//   - the grid is the one `gdalwarp -t_srs EPSG:4326` chooses for the
//     whole source (GDALSuggestedWarpOutput2: the extent of points along
//     the source's edges transformed to longitude/latitude, square pixels
//     of the transformed diagonal over the diagonal in pixels); R is its
//     pixel size, and W S E N the job's box snapped outward to its pixel
//     edges and clipped to it, so the GeoTIFF's pixels are that grid's
//     pixels;
//   - each output pixel's centre is transformed to the source's pixel
//     coordinates exactly (no approximation, as -et 0); an output pixel
//     whose centre falls outside the source, or in a source pixel without
//     data, is nodata;
//   - the "resampling" task parameter ([ParamResampling]) chooses how the
//     others are computed: "nearest" takes the source pixel the centre
//     falls in; "bilinear" (the default) interpolates between the 2×2
//     source pixels around it, leaving out those outside the source or
//     without data and scaling the weights of the others to sum to 1 (no
//     value when they sum to less than 1e-5). Where the output has fewer
//     pixels than the source along an axis (fewer than 0.95 per source
//     pixel over a 512×128 chunk of the output, as gdalwarp's warped VRT
//     counts them), the tent widens along that axis to 1/scale source
//     pixels either side, as GDAL's;
//   - integers are rounded as GDAL rounds them, floor(v+0.5), and clamped
//     to the type.
//
// The tests find nearest samples identical to GDAL's, bilinear ones equal
// or within a float32 rounding, and nodata identical, for UTM north and
// south, Web Mercator, and national TM and LCC grids, in Int16 and
// Float32. The window's rows are warped in blocks of 32 rows, the source
// rows a block reaches read in order through the window reader (and
// dropped once no later block reaches them), the blocks' pixels computed
// on every core. A source some of whose edge points do not transform is refused
// at export (where GDAL would sample a grid inside it).
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
// A warped export also holds, within a quarter of the budget, the source
// rows a block of 32 output rows reaches (8 bytes a sample) and the
// block's source points (16 bytes a pixel); a window that needs more (a
// very wide one, or one much rotated against the source's rows) is
// refused the same way.
//
// # Stopping
//
// An export stops once its context is done: every read of the source
// file looks at the context first (so the row of blocks being read ends
// at the next block), and the COG writer looks at it at every row and
// every tile it writes out. The export then returns the context's error
// and leaves nothing in the output.
package dem
