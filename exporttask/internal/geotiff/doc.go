// Package geotiff writes single-band float32 GeoTIFF files (TIFF 6.0 with
// the GeoTIFF 1.1 tags) in EPSG:4326, as a stream: start with [Encode],
// which takes the image's geometry in an [Image] and pulls the pixel rows
// from a callback one strip at a time, so a large grid never sits in memory
// whole.
//
// The file layout is header, IFD, the IFD's out-of-line values, then the
// strips. Because the IFD comes first, every strip's size must be known
// before the first strip is written: without compression it follows from the
// geometry; with [Deflate] the strips are compressed twice, once to measure
// and once to write. Deflate is deterministic, so both passes agree; the
// writer checks it and fails rather than write a wrong offset.
package geotiff
