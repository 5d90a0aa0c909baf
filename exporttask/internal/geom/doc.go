// Package geom holds the planar geometry the exporters need on WGS 84
// longitude/latitude: bounding boxes, point-in-polygon, and intersection
// tests between polygons and boxes. Start with [FromGeometry] or [FromROI],
// which turn the API's GeoJSON into a [MultiPolygon]. For many points, rows
// of points or boxes over one multipolygon, [NewIndex] files its edges by
// latitude and by cell and answers as MultiPolygon does, reading only the
// edges near each query.
//
// Coordinates are treated as planar (degrees as x and y), which is what
// tile grids in EPSG:4326 do too. Polygons crossing the antimeridian are not
// supported; the request validation keeps longitudes in [-180, 180].
package geom
