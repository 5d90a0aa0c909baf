package exporttask

// AreaKm2 returns the area of the region of interest on the sphere, in
// square kilometres: the sum over its features of each polygon's outer ring
// minus its holes. It fails on a geometry that is not a Polygon or
// MultiPolygon of [lon, lat] positions with finite coordinates. An
// [Exporter] may use it to estimate the size of a cut-out.
func (fc *FeatureCollection) AreaKm2() (float64, error) { return roiAreaKm2(fc) }
