// Package dem exports DEM records as GeoTIFF files. Start with [New], which
// returns an [Exporter] implementing the export.Domain contract; a record's
// data is made by [WriteDemoSource].
//
// # Source
//
// A record's directory (Record.Location) holds elevation.f32: little-endian
// float32 heights in meters, row-major, the first row at the north edge,
// covering exactly the bounding box of the record's footprint at
// Record.Resolution degrees per pixel (width round((east-west)/resolution),
// height round((north-south)/resolution)), -32768 where there is no data.
//
// # Artifacts
//
// An export writes three artifacts:
//   - MODEL "<record id>.tif": a one-band Float32 GeoTIFF in EPSG:4326, the source
//     grid cut to the job's box (whole source pixels), -32768 (GDAL_NODATA)
//     at every pixel whose centre is outside the exported area;
//   - ROI "roi.geojson": the region exported, the request's ROI or the
//     footprint when the request has none;
//   - METADATA "metadata.json": the record, the ROI, the grid and each
//     other artifact's name, size and SHA-256.
//
// No LEGEND artifact is written: the GeoTIFF holds heights, not classes or
// colours, and GDAL and GIS tools derive their own colour scale from its
// statistics.
//
// Progress is counted in GeoTIFF rows written.
package dem
