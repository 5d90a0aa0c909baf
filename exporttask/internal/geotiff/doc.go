// Package geotiff reads GeoTIFF and COG files in place. It does not write
// them: the module's TIFF writer is package cog (exporttask/internal/cog).
//
// # Reading
//
// [Open] takes an io.ReaderAt and the file's size and reads the header and
// IFDs only: the [File] it returns describes the full-resolution image (the
// first IFD that is neither an overview nor a mask) and its georeferencing
// ([Geo]: model tags and GeoKeys) and GDAL_NODATA. Classic TIFF and
// BigTIFF, either byte order, strips or tiles. [File.Decodable] says
// whether the first band can be decoded: 8-, 16-, 32- and 64-bit integer or
// floating-point samples (chunky files of several bands give their first
// band; planar ones the first band's blocks), compression none, LZW (TIFF's
// MSB-first code, decoded by golang.org/x/image/tiff/lzw), Deflate or
// PackBits, predictor 1, 2 or 3. [File.Window] and [File.WindowWith] then
// read rows of a pixel window, decoding only the blocks the window meets,
// each once, the blocks of a row in parallel; they keep only the window's
// part of one row of blocks, in memory within a budget
// ([DefaultWindowBudget] unless given) or else in a scratch file.
// [File.Blocks] reads whole blocks. Every sample comes out little-endian.
//
// Malformed input is an error, never a panic: every offset and count is
// checked against the file's size before anything is allocated for it, a
// decoded block is at most [MaxBlockBytes], and a stored block at most
// about twice its decoded size.
//
// # Imagery
//
// [File.Imagery] reads the same file as 8-bit imagery of 1 to 4 bands
// (gray, gray and alpha, RGB, RGBA, paletted), chunky or planar, with its
// overviews and GDAL's internal transparency masks, compressed as above
// or with JPEG (the JPEGTables tag's tables and each block's stream
// decoded by [jpegdec] to exactly the samples libjpeg-turbo gives GDAL;
// YCbCr converted to RGB when the photometric interpretation says YCbCr).
// [ImageryReader.Block] decodes a block of any level as RGBA, alpha 0
// where the alpha band, the mask or the GDAL_NODATA value says no data.
package geotiff
