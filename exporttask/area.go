package exporttask

// AreaKm2 returns the region's area on the sphere in km² (outer rings less
// holes); an error for a geometry that is not Polygon or MultiPolygon of
// finite [lon, lat] positions. An Exporter may use it in an estimate.
func (fc *FeatureCollection) AreaKm2() (float64, error) { return roiAreaKm2(fc) }
