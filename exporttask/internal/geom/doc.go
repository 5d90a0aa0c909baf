// Package geom holds the planar geometry of the export task service, on
// WGS 84 longitude/latitude, and imports nothing of this module: bounding
// boxes, point-in-polygon, and intersection tests between polygons and
// boxes for the exporters, and the shape checks of the request validation.
// Start with [MultiPolygon] (callers convert the API's GeoJSON to it). For
// many points, rows of points or boxes over one multipolygon, [NewIndex]
// files its edges by latitude and by cell and answers as MultiPolygon
// does, reading only the edges near each query. [Checker] finds what makes
// a polygon's rings invalid: a ring with no area, edges that cross or
// touch, holes outside the exterior or inside one another.
//
// The API's GeoJSON types (exporttask.Geometry, exporttask.Position) are
// not this package's: a GeoJSON position may carry an altitude that a
// created task must give back as it was sent, and the validation must hold
// and point at positions that are not points at all (one number, five, a
// NaN) to name them in its errors. So the wire types stay GeoJSON, and
// [AppendRings] is the one conversion to this package's geometry, done by
// the validation (to check the rings) and by package export (to build a
// job's area), each over the request as decoded.
//
// Coordinates are treated as planar (degrees as x and y), which is what
// tile grids in EPSG:4326 do too. Polygons crossing the antimeridian are not
// supported; the request validation keeps longitudes in [-180, 180].
package geom
