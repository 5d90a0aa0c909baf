// Package cog writes single-band Cloud Optimized GeoTIFFs in EPSG:4326 in
// pure Go, as a stream: [Write] pulls the rows of an [Image] from a callback
// one at a time, so a grid of many gigabytes never sits in memory.
//
// The file is what GDAL's COG driver writes with COMPRESS=DEFLATE,
// PREDICTOR=YES and RESAMPLING=AVERAGE, and gdalinfo reports it as
// LAYOUT=COG:
//
//   - the TIFF header, then GDAL's structural metadata (the "ghost area":
//     LAYOUT=IFDS_BEFORE_DATA, BLOCK_ORDER=ROW_MAJOR,
//     BLOCK_LEADER=SIZE_AS_UINT4, BLOCK_TRAILER=LAST_4_BYTES_REPEATED,
//     KNOWN_INCOMPATIBLE_EDITION=NO);
//   - every IFD, full resolution first, each followed by its values; the
//     overviews are reduced-resolution subfiles (NewSubfileType 1) and carry
//     GDAL_NODATA but not the georeferencing;
//   - the tiles, smallest overview first down to full resolution, row-major
//     within a level, each preceded by its byte count as a 4-byte
//     little-endian integer and followed by a copy of its last 4 bytes.
//
// Tiles are BlockSize square (512 by default); partial tiles at the right
// and bottom edges are padded with zeros, as GDAL pads them. Each tile is a
// zlib stream (Compression 8; github.com/klauspost/compress at its fastest
// level, several times faster than level 6, GDAL's default, for files a
// few percent larger) after the
// horizontal-differencing predictor for integers (Predictor 2) or the
// floating-point predictor for floats (Predictor 3), the choice GDAL makes
// for PREDICTOR=YES.
//
// # Overviews
//
// When the image is wider or taller than one tile, overview levels follow:
// each halves the one before, rounding down, until a level fits in one tile,
// so a 1100×700 image with 256-pixel tiles gets 550×350, 275×175 and
// 137×87, the sizes GDAL chooses. Each level is computed from the level
// above it as GDAL's AVERAGE resampling does: an overview pixel is the
// weighted mean of the source pixels its area covers (two by two when the
// sizes halve exactly, with a sliver of a third row or column when a side
// was odd), leaving out nodata pixels; it is nodata only when all of them
// are, and a mean that lands on the nodata value is moved off it by GDAL's
// rule. Mean elevation suits terrain better than the nearest sample, which
// aliases ridges and valleys.
//
// The means are computed in float64. For the integer types they are
// rounded half away from zero; for Int8, Int16, Int32 and UInt32 a mean
// below 2^24 first passes through float32, which is what GDAL 3.6 computes
// them in and costs nothing there, so those overviews equal GDAL's pixel for
// pixel, as do UInt8, UInt16 and (with nodata) Float32 ones. GDAL 3.6
// rounds Float64 means to float32, and Float32 means of whole 2×2 blocks
// after each float32 addition; this package does not, so those pixels can
// differ from GDAL's in the last float32 place.
//
// NoData is written as given for the float types; for the integer types it
// is stored as GDAL's GeoTIFF writer stores it: rounded, clamped to the
// type's range, 0 for NaN.
//
// # Scratch files and memory
//
// Tile sizes are known only after compression, and the IFDs, which hold
// them, come first; so the writer compresses each level's tiles into a
// scratch file as their rows arrive, on Options.Workers goroutines
// (GOMAXPROCS by default), then writes the header and IFDs to w and copies
// the tiles after them in their order. Each level fills one row of tiles
// while the workers compress the one before, so reading, averaging and
// compressing overlap.
//
// The buffers stay within Options.MemoryBudget (DefaultMemoryBudget,
// 128 MiB, by default), whatever the image's size; [Memory] says how much
// an image takes. A level's two rows of tiles stay in memory while they
// fit the budget, the smallest levels first; the rows of a level that
// does not fit go to a scratch file, from which its tiles are read back
// four at a time. What remains per level is a few rows of the level (as
// samples and as float64 for the averaging) and the tiles' positions: an
// image too wide for even that (about 150 bytes per pixel of width for
// Int16) is refused before anything is written. The file is a BigTIFF
// only when it would pass 4 GiB.
//
// # Use
//
//	img := cog.Image{Width: w, Height: h, BitsPerSample: 16, SampleFormat: 2,
//		West: 34, North: 32, PixelWidth: 1.0 / 3600, PixelHeight: 1.0 / 3600,
//		NoData: "-32768"}
//	n, err := cog.WriteWith(ctx, out, img, func(y int, buf []byte) error {
//		return readRow(y, buf) // little-endian Int16 samples
//	}, cog.Options{ScratchDir: os.TempDir(), MemoryBudget: 64 << 20})
package cog
